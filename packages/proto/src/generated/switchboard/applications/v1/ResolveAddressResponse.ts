// Original file: proto/switchboard/applications/v1/applications.proto

import type { Long } from '@grpc/proto-loader';

export interface ResolveAddressResponse {
  'applicationId'?: (string);
  'accountId'?: (number | string | Long);
}

export interface ResolveAddressResponse__Output {
  'applicationId': (string);
  'accountId': (string);
}
