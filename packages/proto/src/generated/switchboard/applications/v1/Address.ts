// Original file: proto/switchboard/applications/v1/applications.proto

import type { Long } from '@grpc/proto-loader';

export interface Address {
  'type'?: (string);
  'value'?: (string);
  'applicationId'?: (string);
  'accountId'?: (number | string | Long);
  'number'?: (string);
  'displayNumber'?: (string);
  'prefix'?: (string);
  'city'?: (string);
  'state'?: (string);
  'country'?: (string);
  'smsEnabled'?: (boolean);
  'channel'?: (string);
  'token'?: (string);
  'address'?: (string);
  '_number'?: "number";
  '_displayNumber'?: "displayNumber";
  '_prefix'?: "prefix";
  '_city'?: "city";
  '_state'?: "state";
  '_country'?: "country";
  '_smsEnabled'?: "smsEnabled";
  '_channel'?: "channel";
  '_token'?: "token";
  '_address'?: "address";
}

export interface Address__Output {
  'type': (string);
  'value': (string);
  'applicationId': (string);
  'accountId': (string);
  'number'?: (string);
  'displayNumber'?: (string);
  'prefix'?: (string);
  'city'?: (string);
  'state'?: (string);
  'country'?: (string);
  'smsEnabled'?: (boolean);
  'channel'?: (string);
  'token'?: (string);
  'address'?: (string);
  '_number'?: "number";
  '_displayNumber'?: "displayNumber";
  '_prefix'?: "prefix";
  '_city'?: "city";
  '_state'?: "state";
  '_country'?: "country";
  '_smsEnabled'?: "smsEnabled";
  '_channel'?: "channel";
  '_token'?: "token";
  '_address'?: "address";
}
