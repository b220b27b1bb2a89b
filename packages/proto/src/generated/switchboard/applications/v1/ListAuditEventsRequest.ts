// Original file: proto/switchboard/applications/v1/applications.proto

import type { Long } from '@grpc/proto-loader';

export interface ListAuditEventsRequest {
  'accountId'?: (number | string | Long);
  'limit'?: (number);
  'cursor'?: (string);
  'action'?: (string);
  'actor'?: (string);
  'since'?: (string);
  'until'?: (string);
}

export interface ListAuditEventsRequest__Output {
  'accountId': (string);
  'limit': (number);
  'cursor': (string);
  'action': (string);
  'actor': (string);
  'since': (string);
  'until': (string);
}
