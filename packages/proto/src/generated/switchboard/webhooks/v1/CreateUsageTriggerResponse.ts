// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { UsageTrigger as _switchboard_webhooks_v1_UsageTrigger, UsageTrigger__Output as _switchboard_webhooks_v1_UsageTrigger__Output } from '../../../switchboard/webhooks/v1/UsageTrigger.ts';

export interface CreateUsageTriggerResponse {
  'trigger'?: (_switchboard_webhooks_v1_UsageTrigger | null);
}

export interface CreateUsageTriggerResponse__Output {
  'trigger': (_switchboard_webhooks_v1_UsageTrigger__Output | null);
}
