// Original file: proto/switchboard/events/v1/events.proto

import type { Long } from '@grpc/proto-loader';

export interface ApplicationDeleted {
  'applicationId'?: (string);
  'accountId'?: (number | string | Long);
  'deletedAt'?: (string);
}

export interface ApplicationDeleted__Output {
  'applicationId': (string);
  'accountId': (string);
  'deletedAt': (string);
}
