// Original file: proto/switchboard/applications/v1/applications.proto

import type { Long } from '@grpc/proto-loader';

export interface ReleaseAddressRequest {
  'accountId'?: (number | string | Long);
  'applicationId'?: (string);
  'type'?: (string);
  'value'?: (string);
}

export interface ReleaseAddressRequest__Output {
  'accountId': (string);
  'applicationId': (string);
  'type': (string);
  'value': (string);
}
