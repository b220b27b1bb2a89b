// Original file: proto/switchboard/events/v1/events.proto

import type { Long } from '@grpc/proto-loader';

export interface ApplicationChanged {
  'applicationId'?: (string);
  'accountId'?: (number | string | Long);
}

export interface ApplicationChanged__Output {
  'applicationId': (string);
  'accountId': (string);
}
