// Original file: proto/switchboard/applications/v1/applications.proto

import type { Long } from '@grpc/proto-loader';

export interface ListAddressesRequest {
  'accountId'?: (number | string | Long);
  'applicationId'?: (string);
  'type'?: (string);
  '_type'?: "type";
}

export interface ListAddressesRequest__Output {
  'accountId': (string);
  'applicationId': (string);
  'type'?: (string);
  '_type'?: "type";
}
