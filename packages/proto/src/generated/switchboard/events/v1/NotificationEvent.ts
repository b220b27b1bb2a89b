// Original file: proto/switchboard/events/v1/events.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct.ts';

export interface NotificationEvent {
  'id'?: (string);
  'accountId'?: (string);
  'applicationId'?: (string);
  'resource'?: (string);
  'timestamp'?: (string);
  'data'?: (_google_protobuf_Struct | null);
}

export interface NotificationEvent__Output {
  'id': (string);
  'accountId': (string);
  'applicationId': (string);
  'resource': (string);
  'timestamp': (string);
  'data': (_google_protobuf_Struct__Output | null);
}
