// Original file: proto/switchboard/webhooks/v1/webhooks.proto


export interface DisableSubscription {
  'subscriptionId'?: (string);
  'reason'?: (string);
}

export interface DisableSubscription__Output {
  'subscriptionId': (string);
  'reason': (string);
}
