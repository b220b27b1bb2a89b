// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { Long } from '@grpc/proto-loader';

export interface UsagePeriod {
  'start'?: (string);
  'count'?: (number | string | Long);
}

export interface UsagePeriod__Output {
  'start': (string);
  'count': (string);
}
