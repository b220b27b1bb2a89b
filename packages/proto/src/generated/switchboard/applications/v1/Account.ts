// Original file: proto/switchboard/applications/v1/applications.proto

import type { Long } from '@grpc/proto-loader';

export interface Account {
  'id'?: (number | string | Long);
  'username'?: (string);
  'createdAt'?: (string);
}

export interface Account__Output {
  'id': (string);
  'username': (string);
  'createdAt': (string);
}
