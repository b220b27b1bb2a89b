// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { UsagePeriod as _switchboard_webhooks_v1_UsagePeriod, UsagePeriod__Output as _switchboard_webhooks_v1_UsagePeriod__Output } from '../../../switchboard/webhooks/v1/UsagePeriod.ts';
import type { Long } from '@grpc/proto-loader';

export interface GetUsageResponse {
  'category'?: (string);
  'period'?: (string);
  'since'?: (string);
  'until'?: (string);
  'periods'?: (_switchboard_webhooks_v1_UsagePeriod)[];
  'total'?: (number | string | Long);
}

export interface GetUsageResponse__Output {
  'category': (string);
  'period': (string);
  'since': (string);
  'until': (string);
  'periods': (_switchboard_webhooks_v1_UsagePeriod__Output)[];
  'total': (string);
}
