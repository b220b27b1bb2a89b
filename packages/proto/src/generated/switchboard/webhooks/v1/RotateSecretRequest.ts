// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { Long } from '@grpc/proto-loader';

export interface RotateSecretRequest {
  'accountId'?: (number | string | Long);
  'id'?: (string);
}

export interface RotateSecretRequest__Output {
  'accountId': (string);
  'id': (string);
}
