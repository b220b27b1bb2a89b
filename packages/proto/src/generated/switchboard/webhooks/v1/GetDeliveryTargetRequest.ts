// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { Long } from '@grpc/proto-loader';

export interface GetDeliveryTargetRequest {
  'accountId'?: (number | string | Long);
  'subscriptionId'?: (string);
}

export interface GetDeliveryTargetRequest__Output {
  'accountId': (string);
  'subscriptionId': (string);
}
