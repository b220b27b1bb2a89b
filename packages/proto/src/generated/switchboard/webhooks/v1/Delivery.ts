// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { Long } from '@grpc/proto-loader';

export interface Delivery {
  'id'?: (string);
  'messageId'?: (string);
  'kind'?: (string);
  'subscriptionId'?: (string);
  'applicationId'?: (string);
  'accountId'?: (number | string | Long);
  'event'?: (string);
  'targetUrl'?: (string);
  'attempt'?: (number);
  'statusCode'?: (number);
  'durationMs'?: (number);
  'error'?: (string);
  'outcome'?: (string);
  'createdAt'?: (string);
  '_error'?: "error";
}

export interface Delivery__Output {
  'id': (string);
  'messageId': (string);
  'kind': (string);
  'subscriptionId': (string);
  'applicationId': (string);
  'accountId': (string);
  'event': (string);
  'targetUrl': (string);
  'attempt': (number);
  'statusCode': (number);
  'durationMs': (number);
  'error'?: (string);
  'outcome': (string);
  'createdAt': (string);
  '_error'?: "error";
}
