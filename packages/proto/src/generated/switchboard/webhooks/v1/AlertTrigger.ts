// Original file: proto/switchboard/webhooks/v1/webhooks.proto


export interface AlertTrigger {
  'id'?: (string);
  'code'?: (string);
  'applicationId'?: (string);
  'threshold'?: (number);
  'window'?: (string);
  'windowSeconds'?: (number);
  'createdAt'?: (string);
  'lastFiredAt'?: (string);
  'firedCount'?: (number);
  '_applicationId'?: "applicationId";
  '_lastFiredAt'?: "lastFiredAt";
}

export interface AlertTrigger__Output {
  'id': (string);
  'code': (string);
  'applicationId'?: (string);
  'threshold': (number);
  'window': (string);
  'windowSeconds': (number);
  'createdAt': (string);
  'lastFiredAt'?: (string);
  'firedCount': (number);
  '_applicationId'?: "applicationId";
  '_lastFiredAt'?: "lastFiredAt";
}
