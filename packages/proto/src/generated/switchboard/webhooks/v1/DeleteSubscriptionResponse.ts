// Original file: proto/switchboard/webhooks/v1/webhooks.proto


export interface DeleteSubscriptionResponse {
}

export interface DeleteSubscriptionResponse__Output {
}
