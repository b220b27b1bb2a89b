// Original file: proto/switchboard/events/v1/events.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct.ts';

export interface SessionNew {
  'applicationId'?: (string);
  'session'?: (_google_protobuf_Struct | null);
}

export interface SessionNew__Output {
  'applicationId': (string);
  'session': (_google_protobuf_Struct__Output | null);
}
