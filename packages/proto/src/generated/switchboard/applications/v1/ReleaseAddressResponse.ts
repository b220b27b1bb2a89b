// Original file: proto/switchboard/applications/v1/applications.proto


export interface ReleaseAddressResponse {
}

export interface ReleaseAddressResponse__Output {
}
