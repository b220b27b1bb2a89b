// Original file: proto/switchboard/applications/v1/applications.proto


export interface LaunchSessionRequest {
  'token'?: (string);
  'parameters'?: ({[key: string]: string});
  'statusCallbackUrl'?: (string);
}

export interface LaunchSessionRequest__Output {
  'token': (string);
  'parameters': ({[key: string]: string});
  'statusCallbackUrl': (string);
}
