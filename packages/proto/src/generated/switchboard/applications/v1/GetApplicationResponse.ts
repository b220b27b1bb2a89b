// Original file: proto/switchboard/applications/v1/applications.proto

import type { Application as _switchboard_applications_v1_Application, Application__Output as _switchboard_applications_v1_Application__Output } from '../../../switchboard/applications/v1/Application.ts';

export interface GetApplicationResponse {
  'application'?: (_switchboard_applications_v1_Application | null);
}

export interface GetApplicationResponse__Output {
  'application': (_switchboard_applications_v1_Application__Output | null);
}
