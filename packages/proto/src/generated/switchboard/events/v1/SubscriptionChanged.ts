// Original file: proto/switchboard/events/v1/events.proto

import type { Long } from '@grpc/proto-loader';

export interface SubscriptionChanged {
  'subscriptionId'?: (string);
  'accountId'?: (number | string | Long);
  'applicationId'?: (string);
}

export interface SubscriptionChanged__Output {
  'subscriptionId': (string);
  'accountId': (string);
  'applicationId': (string);
}
