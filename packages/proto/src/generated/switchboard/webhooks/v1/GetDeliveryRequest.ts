// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { Long } from '@grpc/proto-loader';

export interface GetDeliveryRequest {
  'accountId'?: (number | string | Long);
  'subscriptionId'?: (string);
  'applicationId'?: (string);
  'deliveryId'?: (string);
}

export interface GetDeliveryRequest__Output {
  'accountId': (string);
  'subscriptionId': (string);
  'applicationId': (string);
  'deliveryId': (string);
}
