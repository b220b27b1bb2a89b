// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { Long } from '@grpc/proto-loader';

export interface ListAlertsRequest {
  'accountId'?: (number | string | Long);
  'limit'?: (number);
  'cursor'?: (string);
  'code'?: (string);
  'severity'?: (string);
  'applicationId'?: (string);
  'since'?: (string);
  'until'?: (string);
}

export interface ListAlertsRequest__Output {
  'accountId': (string);
  'limit': (number);
  'cursor': (string);
  'code': (string);
  'severity': (string);
  'applicationId': (string);
  'since': (string);
  'until': (string);
}
