// Original file: proto/switchboard/applications/v1/applications.proto

import type { Long } from '@grpc/proto-loader';

export interface Environment {
  'id'?: (number | string | Long);
  'name'?: (string);
  'billable'?: (boolean);
}

export interface Environment__Output {
  'id': (string);
  'name': (string);
  'billable': (boolean);
}
