// Original file: proto/switchboard/applications/v1/applications.proto

import type { Long } from '@grpc/proto-loader';

export interface CreateApiKeyRequest {
  'accountId'?: (number | string | Long);
  'name'?: (string);
  'scope'?: (string);
}

export interface CreateApiKeyRequest__Output {
  'accountId': (string);
  'name': (string);
  'scope': (string);
}
