// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { Long } from '@grpc/proto-loader';

export interface RecoverSubscriptionRequest {
  'accountId'?: (number | string | Long);
  'id'?: (string);
  'since'?: (string);
  'until'?: (string);
  'status'?: (string);
  'event'?: (string);
  'statusFrom'?: (number);
  'statusTo'?: (number);
  'messageIds'?: (string)[];
  'dryRun'?: (boolean);
  'sessionIds'?: (string)[];
  '_until'?: "until";
  '_status'?: "status";
  '_event'?: "event";
  '_statusFrom'?: "statusFrom";
  '_statusTo'?: "statusTo";
}

export interface RecoverSubscriptionRequest__Output {
  'accountId': (string);
  'id': (string);
  'since': (string);
  'until'?: (string);
  'status'?: (string);
  'event'?: (string);
  'statusFrom'?: (number);
  'statusTo'?: (number);
  'messageIds': (string)[];
  'dryRun': (boolean);
  'sessionIds': (string)[];
  '_until'?: "until";
  '_status'?: "status";
  '_event'?: "event";
  '_statusFrom'?: "statusFrom";
  '_statusTo'?: "statusTo";
}
