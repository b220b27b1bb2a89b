// Original file: proto/switchboard/applications/v1/applications.proto

import type { Long } from '@grpc/proto-loader';

export interface GetApplicationSecretRequest {
  'accountId'?: (number | string | Long);
  'id'?: (string);
}

export interface GetApplicationSecretRequest__Output {
  'accountId': (string);
  'id': (string);
}
