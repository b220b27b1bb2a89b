// Original file: proto/switchboard/applications/v1/applications.proto

import type { Long } from '@grpc/proto-loader';

export interface GetAddressRequest {
  'accountId'?: (number | string | Long);
  'applicationId'?: (string);
  'type'?: (string);
  'value'?: (string);
}

export interface GetAddressRequest__Output {
  'accountId': (string);
  'applicationId': (string);
  'type': (string);
  'value': (string);
}
