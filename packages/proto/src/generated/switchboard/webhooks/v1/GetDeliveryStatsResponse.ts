// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { DeliveryStatsBucket as _switchboard_webhooks_v1_DeliveryStatsBucket, DeliveryStatsBucket__Output as _switchboard_webhooks_v1_DeliveryStatsBucket__Output } from '../../../switchboard/webhooks/v1/DeliveryStatsBucket.ts';

export interface GetDeliveryStatsResponse {
  'window'?: (string);
  'bucket'?: (string);
  'buckets'?: (_switchboard_webhooks_v1_DeliveryStatsBucket)[];
  'totals'?: (_switchboard_webhooks_v1_DeliveryStatsBucket | null);
  'heldKeys'?: (number);
  '_heldKeys'?: "heldKeys";
}

export interface GetDeliveryStatsResponse__Output {
  'window': (string);
  'bucket': (string);
  'buckets': (_switchboard_webhooks_v1_DeliveryStatsBucket__Output)[];
  'totals': (_switchboard_webhooks_v1_DeliveryStatsBucket__Output | null);
  'heldKeys'?: (number);
  '_heldKeys'?: "heldKeys";
}
