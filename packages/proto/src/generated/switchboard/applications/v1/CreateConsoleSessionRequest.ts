// Original file: proto/switchboard/applications/v1/applications.proto

import type { Long } from '@grpc/proto-loader';

export interface CreateConsoleSessionRequest {
  'accountId'?: (number | string | Long);
}

export interface CreateConsoleSessionRequest__Output {
  'accountId': (string);
}
