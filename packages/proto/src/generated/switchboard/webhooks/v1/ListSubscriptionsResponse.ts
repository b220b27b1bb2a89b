// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { Subscription as _switchboard_webhooks_v1_Subscription, Subscription__Output as _switchboard_webhooks_v1_Subscription__Output } from '../../../switchboard/webhooks/v1/Subscription.ts';

export interface ListSubscriptionsResponse {
  'subscriptions'?: (_switchboard_webhooks_v1_Subscription)[];
  'nextCursor'?: (string);
}

export interface ListSubscriptionsResponse__Output {
  'subscriptions': (_switchboard_webhooks_v1_Subscription__Output)[];
  'nextCursor': (string);
}
