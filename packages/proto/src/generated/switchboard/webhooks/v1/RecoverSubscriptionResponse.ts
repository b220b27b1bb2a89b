// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { Recovery as _switchboard_webhooks_v1_Recovery, Recovery__Output as _switchboard_webhooks_v1_Recovery__Output } from '../../../switchboard/webhooks/v1/Recovery.ts';

export interface RecoverSubscriptionResponse {
  'recovery'?: (_switchboard_webhooks_v1_Recovery | null);
  'matched'?: (number);
  'skipped'?: (number);
}

export interface RecoverSubscriptionResponse__Output {
  'recovery': (_switchboard_webhooks_v1_Recovery__Output | null);
  'matched': (number);
  'skipped': (number);
}
