// Original file: proto/switchboard/webhooks/v1/webhooks.proto


export interface DeleteAlertTriggerResponse {
}

export interface DeleteAlertTriggerResponse__Output {
}
