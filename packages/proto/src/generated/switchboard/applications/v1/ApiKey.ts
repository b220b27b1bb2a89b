// Original file: proto/switchboard/applications/v1/applications.proto

import type { Long } from '@grpc/proto-loader';

export interface ApiKey {
  'id'?: (string);
  'accountId'?: (number | string | Long);
  'name'?: (string);
  'scope'?: (string);
  'prefix'?: (string);
  'createdAt'?: (string);
  'lastUsedAt'?: (string);
}

export interface ApiKey__Output {
  'id': (string);
  'accountId': (string);
  'name': (string);
  'scope': (string);
  'prefix': (string);
  'createdAt': (string);
  'lastUsedAt': (string);
}
