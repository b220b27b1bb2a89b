// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { Alert as _switchboard_webhooks_v1_Alert, Alert__Output as _switchboard_webhooks_v1_Alert__Output } from '../../../switchboard/webhooks/v1/Alert.ts';

export interface ListAlertsResponse {
  'alerts'?: (_switchboard_webhooks_v1_Alert)[];
  'nextCursor'?: (string);
}

export interface ListAlertsResponse__Output {
  'alerts': (_switchboard_webhooks_v1_Alert__Output)[];
  'nextCursor': (string);
}
