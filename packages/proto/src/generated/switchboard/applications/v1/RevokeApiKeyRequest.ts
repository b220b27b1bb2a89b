// Original file: proto/switchboard/applications/v1/applications.proto

import type { Long } from '@grpc/proto-loader';

export interface RevokeApiKeyRequest {
  'accountId'?: (number | string | Long);
  'id'?: (string);
}

export interface RevokeApiKeyRequest__Output {
  'accountId': (string);
  'id': (string);
}
