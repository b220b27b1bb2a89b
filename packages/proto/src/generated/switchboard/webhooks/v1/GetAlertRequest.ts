// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { Long } from '@grpc/proto-loader';

export interface GetAlertRequest {
  'accountId'?: (number | string | Long);
  'alertId'?: (string);
}

export interface GetAlertRequest__Output {
  'accountId': (string);
  'alertId': (string);
}
