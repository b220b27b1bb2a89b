// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { Long } from '@grpc/proto-loader';

export interface CreateSubscriptionRequest {
  'accountId'?: (number | string | Long);
  'applicationId'?: (string);
  'name'?: (string);
  'event'?: (string);
  'resource'?: (string);
  'targetUrl'?: (string);
  'payloadJson'?: (string);
  'enabled'?: (boolean);
  'headersJson'?: (string);
  'settingsJson'?: (string);
  '_name'?: "name";
  '_event'?: "event";
  '_resource'?: "resource";
  '_targetUrl'?: "targetUrl";
  '_payloadJson'?: "payloadJson";
  '_enabled'?: "enabled";
  '_headersJson'?: "headersJson";
  '_settingsJson'?: "settingsJson";
}

export interface CreateSubscriptionRequest__Output {
  'accountId': (string);
  'applicationId': (string);
  'name'?: (string);
  'event'?: (string);
  'resource'?: (string);
  'targetUrl'?: (string);
  'payloadJson'?: (string);
  'enabled'?: (boolean);
  'headersJson'?: (string);
  'settingsJson'?: (string);
  '_name'?: "name";
  '_event'?: "event";
  '_resource'?: "resource";
  '_targetUrl'?: "targetUrl";
  '_payloadJson'?: "payloadJson";
  '_enabled'?: "enabled";
  '_headersJson'?: "headersJson";
  '_settingsJson'?: "settingsJson";
}
