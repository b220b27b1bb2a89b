// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { AlertTrigger as _switchboard_webhooks_v1_AlertTrigger, AlertTrigger__Output as _switchboard_webhooks_v1_AlertTrigger__Output } from '../../../switchboard/webhooks/v1/AlertTrigger.ts';

export interface CreateAlertTriggerResponse {
  'trigger'?: (_switchboard_webhooks_v1_AlertTrigger | null);
}

export interface CreateAlertTriggerResponse__Output {
  'trigger': (_switchboard_webhooks_v1_AlertTrigger__Output | null);
}
