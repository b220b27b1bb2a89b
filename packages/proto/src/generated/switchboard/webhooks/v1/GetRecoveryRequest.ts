// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { Long } from '@grpc/proto-loader';

export interface GetRecoveryRequest {
  'accountId'?: (number | string | Long);
  'subscriptionId'?: (string);
  'taskId'?: (string);
}

export interface GetRecoveryRequest__Output {
  'accountId': (string);
  'subscriptionId': (string);
  'taskId': (string);
}
