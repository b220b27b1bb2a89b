// Original file: proto/switchboard/applications/v1/applications.proto

import type { Address as _switchboard_applications_v1_Address, Address__Output as _switchboard_applications_v1_Address__Output } from '../../../switchboard/applications/v1/Address.ts';

export interface MoveAddressResponse {
  'address'?: (_switchboard_applications_v1_Address | null);
}

export interface MoveAddressResponse__Output {
  'address': (_switchboard_applications_v1_Address__Output | null);
}
