// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { Long } from '@grpc/proto-loader';

export interface DeleteUsageTriggerRequest {
  'accountId'?: (number | string | Long);
  'id'?: (string);
}

export interface DeleteUsageTriggerRequest__Output {
  'accountId': (string);
  'id': (string);
}
