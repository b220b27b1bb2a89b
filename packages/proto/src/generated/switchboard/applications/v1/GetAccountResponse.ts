// Original file: proto/switchboard/applications/v1/applications.proto

import type { Account as _switchboard_applications_v1_Account, Account__Output as _switchboard_applications_v1_Account__Output } from '../../../switchboard/applications/v1/Account.ts';

export interface GetAccountResponse {
  'account'?: (_switchboard_applications_v1_Account | null);
}

export interface GetAccountResponse__Output {
  'account': (_switchboard_applications_v1_Account__Output | null);
}
