// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { Long } from '@grpc/proto-loader';

export interface DeleteSubscriptionRequest {
  'accountId'?: (number | string | Long);
  'id'?: (string);
  'applicationId'?: (string);
}

export interface DeleteSubscriptionRequest__Output {
  'accountId': (string);
  'id': (string);
  'applicationId': (string);
}
