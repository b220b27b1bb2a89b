// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { UsageTrigger as _switchboard_webhooks_v1_UsageTrigger, UsageTrigger__Output as _switchboard_webhooks_v1_UsageTrigger__Output } from '../../../switchboard/webhooks/v1/UsageTrigger.ts';

export interface GetUsageTriggerResponse {
  'trigger'?: (_switchboard_webhooks_v1_UsageTrigger | null);
}

export interface GetUsageTriggerResponse__Output {
  'trigger': (_switchboard_webhooks_v1_UsageTrigger__Output | null);
}
