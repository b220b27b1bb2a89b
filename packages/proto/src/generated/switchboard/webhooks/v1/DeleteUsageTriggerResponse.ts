// Original file: proto/switchboard/webhooks/v1/webhooks.proto


export interface DeleteUsageTriggerResponse {
}

export interface DeleteUsageTriggerResponse__Output {
}
