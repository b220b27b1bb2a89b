// Original file: proto/switchboard/applications/v1/applications.proto

import type { Long } from '@grpc/proto-loader';

export interface MoveAddressRequest {
  'accountId'?: (number | string | Long);
  'toApplicationId'?: (string);
  'type'?: (string);
  'value'?: (string);
}

export interface MoveAddressRequest__Output {
  'accountId': (string);
  'toApplicationId': (string);
  'type': (string);
  'value': (string);
}
