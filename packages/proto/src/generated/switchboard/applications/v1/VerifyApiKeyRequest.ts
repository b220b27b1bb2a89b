// Original file: proto/switchboard/applications/v1/applications.proto


export interface VerifyApiKeyRequest {
  'key'?: (string);
}

export interface VerifyApiKeyRequest__Output {
  'key': (string);
}
