// Original file: proto/switchboard/webhooks/v1/webhooks.proto


export interface RotateSecretResponse {
  'secret'?: (string);
}

export interface RotateSecretResponse__Output {
  'secret': (string);
}
