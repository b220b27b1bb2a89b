// Original file: proto/switchboard/applications/v1/applications.proto

import type { ApiKey as _switchboard_applications_v1_ApiKey, ApiKey__Output as _switchboard_applications_v1_ApiKey__Output } from '../../../switchboard/applications/v1/ApiKey.ts';

export interface CreateApiKeyResponse {
  'apiKey'?: (_switchboard_applications_v1_ApiKey | null);
  'key'?: (string);
}

export interface CreateApiKeyResponse__Output {
  'apiKey': (_switchboard_applications_v1_ApiKey__Output | null);
  'key': (string);
}
