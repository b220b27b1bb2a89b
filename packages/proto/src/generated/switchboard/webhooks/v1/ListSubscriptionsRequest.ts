// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { Long } from '@grpc/proto-loader';

export interface ListSubscriptionsRequest {
  'accountId'?: (number | string | Long);
  'applicationId'?: (string);
  'limit'?: (number);
  'cursor'?: (string);
  'event'?: (string);
  'resource'?: (string);
}

export interface ListSubscriptionsRequest__Output {
  'accountId': (string);
  'applicationId': (string);
  'limit': (number);
  'cursor': (string);
  'event': (string);
  'resource': (string);
}
