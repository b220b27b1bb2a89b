// Original file: proto/switchboard/applications/v1/applications.proto

import type { ApiKey as _switchboard_applications_v1_ApiKey, ApiKey__Output as _switchboard_applications_v1_ApiKey__Output } from '../../../switchboard/applications/v1/ApiKey.ts';

export interface ListApiKeysResponse {
  'apiKeys'?: (_switchboard_applications_v1_ApiKey)[];
}

export interface ListApiKeysResponse__Output {
  'apiKeys': (_switchboard_applications_v1_ApiKey__Output)[];
}
