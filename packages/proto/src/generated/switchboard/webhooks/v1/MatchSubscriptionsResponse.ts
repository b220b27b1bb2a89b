// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { MatchedSubscription as _switchboard_webhooks_v1_MatchedSubscription, MatchedSubscription__Output as _switchboard_webhooks_v1_MatchedSubscription__Output } from '../../../switchboard/webhooks/v1/MatchedSubscription.ts';

export interface MatchSubscriptionsResponse {
  'subscriptions'?: (_switchboard_webhooks_v1_MatchedSubscription)[];
}

export interface MatchSubscriptionsResponse__Output {
  'subscriptions': (_switchboard_webhooks_v1_MatchedSubscription__Output)[];
}
