// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { UsageTrigger as _switchboard_webhooks_v1_UsageTrigger, UsageTrigger__Output as _switchboard_webhooks_v1_UsageTrigger__Output } from '../../../switchboard/webhooks/v1/UsageTrigger.ts';

export interface ListUsageTriggersResponse {
  'triggers'?: (_switchboard_webhooks_v1_UsageTrigger)[];
  'nextCursor'?: (string);
}

export interface ListUsageTriggersResponse__Output {
  'triggers': (_switchboard_webhooks_v1_UsageTrigger__Output)[];
  'nextCursor': (string);
}
