// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { Long } from '@grpc/proto-loader';

export interface ListUsageTriggersRequest {
  'accountId'?: (number | string | Long);
  'limit'?: (number);
  'cursor'?: (string);
}

export interface ListUsageTriggersRequest__Output {
  'accountId': (string);
  'limit': (number);
  'cursor': (string);
}
