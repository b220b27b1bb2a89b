// Original file: proto/switchboard/applications/v1/applications.proto

import type { Long } from '@grpc/proto-loader';

export interface GetApplicationRequest {
  'accountId'?: (number | string | Long);
  'id'?: (string);
  'apiKey'?: (string);
}

export interface GetApplicationRequest__Output {
  'accountId': (string);
  'id': (string);
  'apiKey': (string);
}
