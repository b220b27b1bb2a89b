// Original file: proto/switchboard/applications/v1/applications.proto

import type { Environment as _switchboard_applications_v1_Environment, Environment__Output as _switchboard_applications_v1_Environment__Output } from '../../../switchboard/applications/v1/Environment.ts';

export interface GetEnvironmentResponse {
  'environment'?: (_switchboard_applications_v1_Environment | null);
}

export interface GetEnvironmentResponse__Output {
  'environment': (_switchboard_applications_v1_Environment__Output | null);
}
