// Original file: proto/switchboard/applications/v1/applications.proto

import type { Long } from '@grpc/proto-loader';

export interface ListApplicationsRequest {
  'accountId'?: (number | string | Long);
  'limit'?: (number);
  'cursor'?: (string);
}

export interface ListApplicationsRequest__Output {
  'accountId': (string);
  'limit': (number);
  'cursor': (string);
}
