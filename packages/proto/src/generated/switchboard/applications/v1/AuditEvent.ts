// Original file: proto/switchboard/applications/v1/applications.proto

import type { Long } from '@grpc/proto-loader';

export interface AuditEvent {
  'id'?: (number | string | Long);
  'at'?: (string);
  'actorType'?: (string);
  'actorId'?: (string);
  'actorName'?: (string);
  'action'?: (string);
  'target'?: (string);
  'ip'?: (string);
  'requestId'?: (string);
  'outcome'?: (string);
}

export interface AuditEvent__Output {
  'id': (string);
  'at': (string);
  'actorType': (string);
  'actorId': (string);
  'actorName': (string);
  'action': (string);
  'target': (string);
  'ip': (string);
  'requestId': (string);
  'outcome': (string);
}
