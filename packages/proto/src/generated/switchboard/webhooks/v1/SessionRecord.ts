// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { SessionAttempt as _switchboard_webhooks_v1_SessionAttempt, SessionAttempt__Output as _switchboard_webhooks_v1_SessionAttempt__Output } from '../../../switchboard/webhooks/v1/SessionAttempt.ts';
import type { SessionInstructions as _switchboard_webhooks_v1_SessionInstructions, SessionInstructions__Output as _switchboard_webhooks_v1_SessionInstructions__Output } from '../../../switchboard/webhooks/v1/SessionInstructions.ts';
import type { SessionSignal as _switchboard_webhooks_v1_SessionSignal, SessionSignal__Output as _switchboard_webhooks_v1_SessionSignal__Output } from '../../../switchboard/webhooks/v1/SessionSignal.ts';
import type { Long } from '@grpc/proto-loader';

export interface SessionRecord {
  'id'?: (string);
  'applicationId'?: (string);
  'accountId'?: (number | string | Long);
  'channel'?: (string);
  'from'?: (string);
  'to'?: (string);
  'startedAt'?: (string);
  'routedByType'?: (string);
  'routedByValue'?: (string);
  'outcome'?: (string);
  'attempts'?: (_switchboard_webhooks_v1_SessionAttempt)[];
  'instructions'?: (_switchboard_webhooks_v1_SessionInstructions | null);
  'signals'?: (_switchboard_webhooks_v1_SessionSignal)[];
  'failureReason'?: (string);
  'attemptCount'?: (number);
  '_from'?: "from";
  '_to'?: "to";
  '_routedByValue'?: "routedByValue";
  '_instructions'?: "instructions";
  '_failureReason'?: "failureReason";
}

export interface SessionRecord__Output {
  'id': (string);
  'applicationId': (string);
  'accountId': (string);
  'channel': (string);
  'from'?: (string);
  'to'?: (string);
  'startedAt': (string);
  'routedByType': (string);
  'routedByValue'?: (string);
  'outcome': (string);
  'attempts': (_switchboard_webhooks_v1_SessionAttempt__Output)[];
  'instructions'?: (_switchboard_webhooks_v1_SessionInstructions__Output | null);
  'signals': (_switchboard_webhooks_v1_SessionSignal__Output)[];
  'failureReason'?: (string);
  'attemptCount': (number);
  '_from'?: "from";
  '_to'?: "to";
  '_routedByValue'?: "routedByValue";
  '_instructions'?: "instructions";
  '_failureReason'?: "failureReason";
}
