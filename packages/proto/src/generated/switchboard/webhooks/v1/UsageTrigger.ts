// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { Long } from '@grpc/proto-loader';

export interface UsageTrigger {
  'id'?: (string);
  'category'?: (string);
  'threshold'?: (number | string | Long);
  'recurring'?: (string);
  'createdAt'?: (string);
  'lastFiredAt'?: (string);
  'lastFiredPeriod'?: (string);
  '_lastFiredAt'?: "lastFiredAt";
  '_lastFiredPeriod'?: "lastFiredPeriod";
}

export interface UsageTrigger__Output {
  'id': (string);
  'category': (string);
  'threshold': (string);
  'recurring': (string);
  'createdAt': (string);
  'lastFiredAt'?: (string);
  'lastFiredPeriod'?: (string);
  '_lastFiredAt'?: "lastFiredAt";
  '_lastFiredPeriod'?: "lastFiredPeriod";
}
