// Original file: proto/switchboard/applications/v1/applications.proto

import type { AuditEvent as _switchboard_applications_v1_AuditEvent, AuditEvent__Output as _switchboard_applications_v1_AuditEvent__Output } from '../../../switchboard/applications/v1/AuditEvent.ts';

export interface ListAuditEventsResponse {
  'events'?: (_switchboard_applications_v1_AuditEvent)[];
  'nextCursor'?: (string);
}

export interface ListAuditEventsResponse__Output {
  'events': (_switchboard_applications_v1_AuditEvent__Output)[];
  'nextCursor': (string);
}
