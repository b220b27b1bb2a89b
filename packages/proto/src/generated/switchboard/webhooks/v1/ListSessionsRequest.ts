// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { Long } from '@grpc/proto-loader';

export interface ListSessionsRequest {
  'accountId'?: (number | string | Long);
  'applicationId'?: (string);
  'limit'?: (number);
  'cursor'?: (string);
  'outcome'?: (string);
  'channel'?: (string);
  'since'?: (string);
  'until'?: (string);
  'from'?: (string);
}

export interface ListSessionsRequest__Output {
  'accountId': (string);
  'applicationId': (string);
  'limit': (number);
  'cursor': (string);
  'outcome': (string);
  'channel': (string);
  'since': (string);
  'until': (string);
  'from': (string);
}
