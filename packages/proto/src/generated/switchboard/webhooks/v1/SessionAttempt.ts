// Original file: proto/switchboard/webhooks/v1/webhooks.proto


export interface SessionAttempt {
  'at'?: (string);
  'url'?: (string);
  'role'?: (string);
  'status'?: (number);
  'durationMs'?: (number);
  'error'?: (string);
  'responseContentType'?: (string);
  'responseExcerpt'?: (string);
  'responseTruncated'?: (boolean);
  '_error'?: "error";
  '_responseContentType'?: "responseContentType";
  '_responseExcerpt'?: "responseExcerpt";
}

export interface SessionAttempt__Output {
  'at': (string);
  'url': (string);
  'role': (string);
  'status': (number);
  'durationMs': (number);
  'error'?: (string);
  'responseContentType'?: (string);
  'responseExcerpt'?: (string);
  'responseTruncated': (boolean);
  '_error'?: "error";
  '_responseContentType'?: "responseContentType";
  '_responseExcerpt'?: "responseExcerpt";
}
