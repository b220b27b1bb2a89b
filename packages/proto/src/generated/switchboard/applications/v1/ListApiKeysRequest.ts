// Original file: proto/switchboard/applications/v1/applications.proto

import type { Long } from '@grpc/proto-loader';

export interface ListApiKeysRequest {
  'accountId'?: (number | string | Long);
}

export interface ListApiKeysRequest__Output {
  'accountId': (string);
}
