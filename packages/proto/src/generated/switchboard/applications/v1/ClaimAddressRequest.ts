// Original file: proto/switchboard/applications/v1/applications.proto

import type { Long } from '@grpc/proto-loader';

export interface ClaimAddressRequest {
  'accountId'?: (number | string | Long);
  'applicationId'?: (string);
  'type'?: (string);
  'prefix'?: (string);
  'number'?: (string);
  'channel'?: (string);
  'city'?: (string);
  'state'?: (string);
  '_prefix'?: "prefix";
  '_number'?: "number";
  '_channel'?: "channel";
  '_city'?: "city";
  '_state'?: "state";
}

export interface ClaimAddressRequest__Output {
  'accountId': (string);
  'applicationId': (string);
  'type': (string);
  'prefix'?: (string);
  'number'?: (string);
  'channel'?: (string);
  'city'?: (string);
  'state'?: (string);
  '_prefix'?: "prefix";
  '_number'?: "number";
  '_channel'?: "channel";
  '_city'?: "city";
  '_state'?: "state";
}
