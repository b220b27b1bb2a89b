// Original file: proto/switchboard/applications/v1/applications.proto

import type { Account as _switchboard_applications_v1_Account, Account__Output as _switchboard_applications_v1_Account__Output } from '../../../switchboard/applications/v1/Account.ts';

export interface VerifyConsoleSessionResponse {
  'account'?: (_switchboard_applications_v1_Account | null);
  'sessionId'?: (string);
  'expiresAt'?: (string);
}

export interface VerifyConsoleSessionResponse__Output {
  'account': (_switchboard_applications_v1_Account__Output | null);
  'sessionId': (string);
  'expiresAt': (string);
}
