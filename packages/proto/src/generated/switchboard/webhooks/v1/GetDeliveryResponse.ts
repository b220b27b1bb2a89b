// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { Delivery as _switchboard_webhooks_v1_Delivery, Delivery__Output as _switchboard_webhooks_v1_Delivery__Output } from '../../../switchboard/webhooks/v1/Delivery.ts';

export interface GetDeliveryResponse {
  'delivery'?: (_switchboard_webhooks_v1_Delivery | null);
}

export interface GetDeliveryResponse__Output {
  'delivery': (_switchboard_webhooks_v1_Delivery__Output | null);
}
