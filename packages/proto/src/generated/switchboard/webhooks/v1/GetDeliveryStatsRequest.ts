// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { Long } from '@grpc/proto-loader';

export interface GetDeliveryStatsRequest {
  'accountId'?: (number | string | Long);
  'subscriptionId'?: (string);
  'applicationId'?: (string);
  'window'?: (string);
  'bucket'?: (string);
}

export interface GetDeliveryStatsRequest__Output {
  'accountId': (string);
  'subscriptionId': (string);
  'applicationId': (string);
  'window': (string);
  'bucket': (string);
}
