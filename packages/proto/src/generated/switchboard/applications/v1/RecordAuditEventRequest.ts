// Original file: proto/switchboard/applications/v1/applications.proto


export interface RecordAuditEventRequest {
  'username'?: (string);
  'action'?: (string);
  'outcome'?: (string);
  'keyId'?: (string);
}

export interface RecordAuditEventRequest__Output {
  'username': (string);
  'action': (string);
  'outcome': (string);
  'keyId': (string);
}
