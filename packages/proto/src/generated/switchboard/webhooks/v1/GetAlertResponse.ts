// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { Alert as _switchboard_webhooks_v1_Alert, Alert__Output as _switchboard_webhooks_v1_Alert__Output } from '../../../switchboard/webhooks/v1/Alert.ts';

export interface GetAlertResponse {
  'alert'?: (_switchboard_webhooks_v1_Alert | null);
}

export interface GetAlertResponse__Output {
  'alert': (_switchboard_webhooks_v1_Alert__Output | null);
}
