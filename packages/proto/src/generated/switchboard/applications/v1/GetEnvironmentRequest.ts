// Original file: proto/switchboard/applications/v1/applications.proto

import type { Long } from '@grpc/proto-loader';

export interface GetEnvironmentRequest {
  'id'?: (number | string | Long);
}

export interface GetEnvironmentRequest__Output {
  'id': (string);
}
