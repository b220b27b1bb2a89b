// Original file: proto/switchboard/applications/v1/applications.proto


export interface ListAvailableNumbersRequest {
  'prefix'?: (string);
  'limit'?: (number);
  'cursor'?: (string);
}

export interface ListAvailableNumbersRequest__Output {
  'prefix': (string);
  'limit': (number);
  'cursor': (string);
}
