// Original file: proto/switchboard/webhooks/v1/webhooks.proto


export interface RecordAttemptsResponse {
}

export interface RecordAttemptsResponse__Output {
}
