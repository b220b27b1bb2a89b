// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { Long } from '@grpc/proto-loader';

export interface CreateAlertTriggerRequest {
  'accountId'?: (number | string | Long);
  'code'?: (string);
  'applicationId'?: (string);
  'threshold'?: (number);
  'window'?: (string);
  '_code'?: "code";
  '_applicationId'?: "applicationId";
  '_threshold'?: "threshold";
  '_window'?: "window";
}

export interface CreateAlertTriggerRequest__Output {
  'accountId': (string);
  'code'?: (string);
  'applicationId'?: (string);
  'threshold'?: (number);
  'window'?: (string);
  '_code'?: "code";
  '_applicationId'?: "applicationId";
  '_threshold'?: "threshold";
  '_window'?: "window";
}
