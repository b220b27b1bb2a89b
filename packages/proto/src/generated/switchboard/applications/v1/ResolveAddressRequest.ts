// Original file: proto/switchboard/applications/v1/applications.proto


export interface ResolveAddressRequest {
  'address'?: (string);
}

export interface ResolveAddressRequest__Output {
  'address': (string);
}
