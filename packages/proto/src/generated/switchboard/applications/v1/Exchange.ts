// Original file: proto/switchboard/applications/v1/applications.proto


export interface Exchange {
  'prefix'?: (string);
  'city'?: (string);
  'state'?: (string);
  'country'?: (string);
}

export interface Exchange__Output {
  'prefix': (string);
  'city': (string);
  'state': (string);
  'country': (string);
}
