// Original file: proto/switchboard/applications/v1/applications.proto


export interface ListExchangesRequest {
}

export interface ListExchangesRequest__Output {
}
