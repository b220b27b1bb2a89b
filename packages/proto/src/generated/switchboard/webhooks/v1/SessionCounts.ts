// Original file: proto/switchboard/webhooks/v1/webhooks.proto


export interface SessionCounts {
  'answered'?: (number);
  'fallback'?: (number);
  'failed'?: (number);
}

export interface SessionCounts__Output {
  'answered': (number);
  'fallback': (number);
  'failed': (number);
}
