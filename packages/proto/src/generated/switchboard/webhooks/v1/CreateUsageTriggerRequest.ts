// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { Long } from '@grpc/proto-loader';

export interface CreateUsageTriggerRequest {
  'accountId'?: (number | string | Long);
  'category'?: (string);
  'threshold'?: (number | string | Long);
  'recurring'?: (string);
  '_category'?: "category";
  '_threshold'?: "threshold";
  '_recurring'?: "recurring";
}

export interface CreateUsageTriggerRequest__Output {
  'accountId': (string);
  'category'?: (string);
  'threshold'?: (string);
  'recurring'?: (string);
  '_category'?: "category";
  '_threshold'?: "threshold";
  '_recurring'?: "recurring";
}
