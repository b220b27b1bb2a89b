// Original file: proto/switchboard/applications/v1/applications.proto

import type { Long } from '@grpc/proto-loader';

export interface ChangePasswordRequest {
  'accountId'?: (number | string | Long);
  'current'?: (string);
  'new'?: (string);
  'revokeKeys'?: (boolean);
}

export interface ChangePasswordRequest__Output {
  'accountId': (string);
  'current': (string);
  'new': (string);
  'revokeKeys': (boolean);
}
