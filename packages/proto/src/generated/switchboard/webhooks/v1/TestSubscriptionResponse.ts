// Original file: proto/switchboard/webhooks/v1/webhooks.proto


export interface TestSubscriptionResponse {
  'status'?: (number);
  'durationMs'?: (number);
  'error'?: (string);
  'deliveryId'?: (string);
  '_error'?: "error";
}

export interface TestSubscriptionResponse__Output {
  'status': (number);
  'durationMs': (number);
  'error'?: (string);
  'deliveryId': (string);
  '_error'?: "error";
}
