// Original file: proto/switchboard/applications/v1/applications.proto


export interface EndConsoleSessionResponse {
}

export interface EndConsoleSessionResponse__Output {
}
