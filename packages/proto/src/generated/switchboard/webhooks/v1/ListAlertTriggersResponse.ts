// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { AlertTrigger as _switchboard_webhooks_v1_AlertTrigger, AlertTrigger__Output as _switchboard_webhooks_v1_AlertTrigger__Output } from '../../../switchboard/webhooks/v1/AlertTrigger.ts';

export interface ListAlertTriggersResponse {
  'triggers'?: (_switchboard_webhooks_v1_AlertTrigger)[];
  'nextCursor'?: (string);
}

export interface ListAlertTriggersResponse__Output {
  'triggers': (_switchboard_webhooks_v1_AlertTrigger__Output)[];
  'nextCursor': (string);
}
