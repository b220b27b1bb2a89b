// Original file: proto/switchboard/applications/v1/applications.proto

import type { ApiKey as _switchboard_applications_v1_ApiKey, ApiKey__Output as _switchboard_applications_v1_ApiKey__Output } from '../../../switchboard/applications/v1/ApiKey.ts';

export interface VerifyApiKeyResponse {
  'apiKey'?: (_switchboard_applications_v1_ApiKey | null);
  'username'?: (string);
}

export interface VerifyApiKeyResponse__Output {
  'apiKey': (_switchboard_applications_v1_ApiKey__Output | null);
  'username': (string);
}
