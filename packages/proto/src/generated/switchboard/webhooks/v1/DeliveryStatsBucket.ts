// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { SessionCounts as _switchboard_webhooks_v1_SessionCounts, SessionCounts__Output as _switchboard_webhooks_v1_SessionCounts__Output } from '../../../switchboard/webhooks/v1/SessionCounts.ts';
import type { Long } from '@grpc/proto-loader';

export interface DeliveryStatsBucket {
  'start'?: (string);
  'attempts'?: (number | string | Long);
  'succeeded'?: (number | string | Long);
  'retrying'?: (number | string | Long);
  'failed'?: (number | string | Long);
  'cancelled'?: (number | string | Long);
  'p50Ms'?: (number);
  'p95Ms'?: (number);
  'sessions'?: (_switchboard_webhooks_v1_SessionCounts | null);
  'throttled'?: (number | string | Long);
  '_p50Ms'?: "p50Ms";
  '_p95Ms'?: "p95Ms";
}

export interface DeliveryStatsBucket__Output {
  'start': (string);
  'attempts': (string);
  'succeeded': (string);
  'retrying': (string);
  'failed': (string);
  'cancelled': (string);
  'p50Ms'?: (number);
  'p95Ms'?: (number);
  'sessions': (_switchboard_webhooks_v1_SessionCounts__Output | null);
  'throttled': (string);
  '_p50Ms'?: "p50Ms";
  '_p95Ms'?: "p95Ms";
}
