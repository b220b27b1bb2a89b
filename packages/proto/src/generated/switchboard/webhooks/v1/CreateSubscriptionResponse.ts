// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { Subscription as _switchboard_webhooks_v1_Subscription, Subscription__Output as _switchboard_webhooks_v1_Subscription__Output } from '../../../switchboard/webhooks/v1/Subscription.ts';

export interface CreateSubscriptionResponse {
  'subscription'?: (_switchboard_webhooks_v1_Subscription | null);
  'secret'?: (string);
}

export interface CreateSubscriptionResponse__Output {
  'subscription': (_switchboard_webhooks_v1_Subscription__Output | null);
  'secret': (string);
}
