// Original file: proto/switchboard/applications/v1/applications.proto

import type { Long } from '@grpc/proto-loader';

export interface LaunchSessionResponse {
  'sessionId'?: (string);
  'applicationId'?: (string);
  'accountId'?: (number | string | Long);
}

export interface LaunchSessionResponse__Output {
  'sessionId': (string);
  'applicationId': (string);
  'accountId': (string);
}
