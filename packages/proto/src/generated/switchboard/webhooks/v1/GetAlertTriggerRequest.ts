// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { Long } from '@grpc/proto-loader';

export interface GetAlertTriggerRequest {
  'accountId'?: (number | string | Long);
  'id'?: (string);
}

export interface GetAlertTriggerRequest__Output {
  'accountId': (string);
  'id': (string);
}
