// Original file: proto/switchboard/applications/v1/applications.proto

import type { Long } from '@grpc/proto-loader';

export interface ClaimAddressRequest {
  'accountId'?: (number | string | Long);
  'applicationId'?: (string);
  'type'?: (string);
  'prefix'?: (string);
  'number'?: (string);
  'channel'?: (string);
  '_prefix'?: "prefix";
  '_number'?: "number";
  '_channel'?: "channel";
}

export interface ClaimAddressRequest__Output {
  'accountId': (string);
  'applicationId': (string);
  'type': (string);
  'prefix'?: (string);
  'number'?: (string);
  'channel'?: (string);
  '_prefix'?: "prefix";
  '_number'?: "number";
  '_channel'?: "channel";
}
