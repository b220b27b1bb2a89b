// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { Long } from '@grpc/proto-loader';

export interface ListDeliveriesRequest {
  'accountId'?: (number | string | Long);
  'subscriptionId'?: (string);
  'applicationId'?: (string);
  'limit'?: (number);
  'cursor'?: (string);
  'outcome'?: (string);
  'event'?: (string);
  'since'?: (string);
  'until'?: (string);
  'messageId'?: (string);
}

export interface ListDeliveriesRequest__Output {
  'accountId': (string);
  'subscriptionId': (string);
  'applicationId': (string);
  'limit': (number);
  'cursor': (string);
  'outcome': (string);
  'event': (string);
  'since': (string);
  'until': (string);
  'messageId': (string);
}
