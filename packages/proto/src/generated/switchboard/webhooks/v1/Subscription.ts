// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { Long } from '@grpc/proto-loader';

export interface Subscription {
  'id'?: (string);
  'accountId'?: (number | string | Long);
  'applicationId'?: (string);
  'name'?: (string);
  'event'?: (string);
  'resource'?: (string);
  'targetUrl'?: (string);
  'payloadJson'?: (string);
  'enabled'?: (boolean);
  'createdAt'?: (string);
  'updatedAt'?: (string);
  'consecutiveFailures'?: (number);
  'lastAttemptAt'?: (string);
  'lastStatus'?: (number);
  'disabledReason'?: (string);
  'headers'?: ({[key: string]: string});
  'settingsJson'?: (string);
  '_name'?: "name";
  '_payloadJson'?: "payloadJson";
  '_lastAttemptAt'?: "lastAttemptAt";
  '_lastStatus'?: "lastStatus";
  '_disabledReason'?: "disabledReason";
  '_settingsJson'?: "settingsJson";
}

export interface Subscription__Output {
  'id': (string);
  'accountId': (string);
  'applicationId': (string);
  'name'?: (string);
  'event': (string);
  'resource': (string);
  'targetUrl': (string);
  'payloadJson'?: (string);
  'enabled': (boolean);
  'createdAt': (string);
  'updatedAt': (string);
  'consecutiveFailures': (number);
  'lastAttemptAt'?: (string);
  'lastStatus'?: (number);
  'disabledReason'?: (string);
  'headers': ({[key: string]: string});
  'settingsJson'?: (string);
  '_name'?: "name";
  '_payloadJson'?: "payloadJson";
  '_lastAttemptAt'?: "lastAttemptAt";
  '_lastStatus'?: "lastStatus";
  '_disabledReason'?: "disabledReason";
  '_settingsJson'?: "settingsJson";
}
