// Original file: proto/switchboard/webhooks/v1/webhooks.proto


export interface Alert {
  'id'?: (string);
  'code'?: (string);
  'severity'?: (string);
  'at'?: (string);
  'lastAt'?: (string);
  'count'?: (number);
  'applicationId'?: (string);
  'subscriptionId'?: (string);
  'sessionId'?: (string);
  'deliveryId'?: (string);
  'attempt'?: (number);
  'message'?: (string);
  '_applicationId'?: "applicationId";
  '_subscriptionId'?: "subscriptionId";
  '_sessionId'?: "sessionId";
  '_deliveryId'?: "deliveryId";
  '_attempt'?: "attempt";
}

export interface Alert__Output {
  'id': (string);
  'code': (string);
  'severity': (string);
  'at': (string);
  'lastAt': (string);
  'count': (number);
  'applicationId'?: (string);
  'subscriptionId'?: (string);
  'sessionId'?: (string);
  'deliveryId'?: (string);
  'attempt'?: (number);
  'message': (string);
  '_applicationId'?: "applicationId";
  '_subscriptionId'?: "subscriptionId";
  '_sessionId'?: "sessionId";
  '_deliveryId'?: "deliveryId";
  '_attempt'?: "attempt";
}
