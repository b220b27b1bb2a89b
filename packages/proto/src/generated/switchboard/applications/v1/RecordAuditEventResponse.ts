// Original file: proto/switchboard/applications/v1/applications.proto


export interface RecordAuditEventResponse {
}

export interface RecordAuditEventResponse__Output {
}
