// Original file: proto/switchboard/applications/v1/applications.proto


export interface DeleteApplicationResponse {
}

export interface DeleteApplicationResponse__Output {
}
