// Original file: proto/switchboard/webhooks/v1/webhooks.proto


export interface Recovery {
  'id'?: (string);
  'subscriptionId'?: (string);
  'state'?: (string);
  'total'?: (number);
  'sent'?: (number);
  'failed'?: (number);
  'skipped'?: (number);
  'since'?: (string);
  'until'?: (string);
  'createdAt'?: (string);
  'completedAt'?: (string);
  '_completedAt'?: "completedAt";
}

export interface Recovery__Output {
  'id': (string);
  'subscriptionId': (string);
  'state': (string);
  'total': (number);
  'sent': (number);
  'failed': (number);
  'skipped': (number);
  'since': (string);
  'until': (string);
  'createdAt': (string);
  'completedAt'?: (string);
  '_completedAt'?: "completedAt";
}
