// Original file: proto/switchboard/webhooks/v1/webhooks.proto


export interface ResendDeliveryResponse {
  'deliveryId'?: (string);
}

export interface ResendDeliveryResponse__Output {
  'deliveryId': (string);
}
