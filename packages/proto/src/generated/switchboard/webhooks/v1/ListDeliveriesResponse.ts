// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { Delivery as _switchboard_webhooks_v1_Delivery, Delivery__Output as _switchboard_webhooks_v1_Delivery__Output } from '../../../switchboard/webhooks/v1/Delivery.ts';

export interface ListDeliveriesResponse {
  'deliveries'?: (_switchboard_webhooks_v1_Delivery)[];
  'nextCursor'?: (string);
}

export interface ListDeliveriesResponse__Output {
  'deliveries': (_switchboard_webhooks_v1_Delivery__Output)[];
  'nextCursor': (string);
}
