// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { SessionRecord as _switchboard_webhooks_v1_SessionRecord, SessionRecord__Output as _switchboard_webhooks_v1_SessionRecord__Output } from '../../../switchboard/webhooks/v1/SessionRecord.ts';

export interface GetSessionResponse {
  'session'?: (_switchboard_webhooks_v1_SessionRecord | null);
}

export interface GetSessionResponse__Output {
  'session': (_switchboard_webhooks_v1_SessionRecord__Output | null);
}
