// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { Delivery as _switchboard_webhooks_v1_Delivery, Delivery__Output as _switchboard_webhooks_v1_Delivery__Output } from '../../../switchboard/webhooks/v1/Delivery.ts';
import type { DisableSubscription as _switchboard_webhooks_v1_DisableSubscription, DisableSubscription__Output as _switchboard_webhooks_v1_DisableSubscription__Output } from '../../../switchboard/webhooks/v1/DisableSubscription.ts';

export interface RecordAttemptsRequest {
  'attempts'?: (_switchboard_webhooks_v1_Delivery)[];
  'disable'?: (_switchboard_webhooks_v1_DisableSubscription)[];
}

export interface RecordAttemptsRequest__Output {
  'attempts': (_switchboard_webhooks_v1_Delivery__Output)[];
  'disable': (_switchboard_webhooks_v1_DisableSubscription__Output)[];
}
