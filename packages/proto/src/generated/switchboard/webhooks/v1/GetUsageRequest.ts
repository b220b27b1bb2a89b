// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { Long } from '@grpc/proto-loader';

export interface GetUsageRequest {
  'accountId'?: (number | string | Long);
  'category'?: (string);
  'period'?: (string);
  'since'?: (string);
  'until'?: (string);
  'applicationId'?: (string);
}

export interface GetUsageRequest__Output {
  'accountId': (string);
  'category': (string);
  'period': (string);
  'since': (string);
  'until': (string);
  'applicationId': (string);
}
