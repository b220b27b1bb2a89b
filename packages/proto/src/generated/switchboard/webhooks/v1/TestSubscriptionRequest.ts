// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { Long } from '@grpc/proto-loader';

export interface TestSubscriptionRequest {
  'accountId'?: (number | string | Long);
  'id'?: (string);
  'message'?: (string);
  '_message'?: "message";
}

export interface TestSubscriptionRequest__Output {
  'accountId': (string);
  'id': (string);
  'message'?: (string);
  '_message'?: "message";
}
