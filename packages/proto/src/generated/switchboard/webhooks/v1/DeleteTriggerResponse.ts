// Original file: proto/switchboard/webhooks/v1/webhooks.proto


export interface DeleteTriggerResponse {
}

export interface DeleteTriggerResponse__Output {
}
