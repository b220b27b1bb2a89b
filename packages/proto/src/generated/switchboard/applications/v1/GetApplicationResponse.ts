// Original file: proto/switchboard/applications/v1/applications.proto

import type { Application as _switchboard_applications_v1_Application, Application__Output as _switchboard_applications_v1_Application__Output } from '../../../switchboard/applications/v1/Application.ts';
import type { VerifyApiKeyResponse as _switchboard_applications_v1_VerifyApiKeyResponse, VerifyApiKeyResponse__Output as _switchboard_applications_v1_VerifyApiKeyResponse__Output } from '../../../switchboard/applications/v1/VerifyApiKeyResponse.ts';

export interface GetApplicationResponse {
  'application'?: (_switchboard_applications_v1_Application | null);
  'key'?: (_switchboard_applications_v1_VerifyApiKeyResponse | null);
}

export interface GetApplicationResponse__Output {
  'application': (_switchboard_applications_v1_Application__Output | null);
  'key': (_switchboard_applications_v1_VerifyApiKeyResponse__Output | null);
}
