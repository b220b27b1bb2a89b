// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { Long } from '@grpc/proto-loader';

export interface ResendDeliveryRequest {
  'accountId'?: (number | string | Long);
  'subscriptionId'?: (string);
  'applicationId'?: (string);
  'deliveryId'?: (string);
}

export interface ResendDeliveryRequest__Output {
  'accountId': (string);
  'subscriptionId': (string);
  'applicationId': (string);
  'deliveryId': (string);
}
