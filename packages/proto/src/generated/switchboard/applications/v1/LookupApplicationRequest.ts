// Original file: proto/switchboard/applications/v1/applications.proto


export interface LookupApplicationRequest {
  'id'?: (string);
}

export interface LookupApplicationRequest__Output {
  'id': (string);
}
