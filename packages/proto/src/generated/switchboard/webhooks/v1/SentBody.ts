// Original file: proto/switchboard/webhooks/v1/webhooks.proto


export interface SentBody {
  'body'?: (string);
  'bytes'?: (number);
  'truncated'?: (boolean);
}

export interface SentBody__Output {
  'body': (string);
  'bytes': (number);
  'truncated': (boolean);
}
