// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { Long } from '@grpc/proto-loader';

export interface MatchSubscriptionsRequest {
  'accountId'?: (number | string | Long);
  'applicationId'?: (string);
  'event'?: (string);
  'resource'?: (string);
}

export interface MatchSubscriptionsRequest__Output {
  'accountId': (string);
  'applicationId': (string);
  'event': (string);
  'resource': (string);
}
