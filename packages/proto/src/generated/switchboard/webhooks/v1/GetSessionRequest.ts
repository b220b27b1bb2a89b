// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { Long } from '@grpc/proto-loader';

export interface GetSessionRequest {
  'accountId'?: (number | string | Long);
  'sessionId'?: (string);
}

export interface GetSessionRequest__Output {
  'accountId': (string);
  'sessionId': (string);
}
