// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { DeliveryKind as _switchboard_webhooks_v1_DeliveryKind, DeliveryKind__Output as _switchboard_webhooks_v1_DeliveryKind__Output } from '../../../switchboard/webhooks/v1/DeliveryKind.ts';
import type { DeliveryOutcome as _switchboard_webhooks_v1_DeliveryOutcome, DeliveryOutcome__Output as _switchboard_webhooks_v1_DeliveryOutcome__Output } from '../../../switchboard/webhooks/v1/DeliveryOutcome.ts';
import type { SentBody as _switchboard_webhooks_v1_SentBody, SentBody__Output as _switchboard_webhooks_v1_SentBody__Output } from '../../../switchboard/webhooks/v1/SentBody.ts';
import type { Long } from '@grpc/proto-loader';

export interface Delivery {
  'id'?: (string);
  'messageId'?: (string);
  'kind'?: (string);
  'subscriptionId'?: (string);
  'applicationId'?: (string);
  'accountId'?: (number | string | Long);
  'event'?: (string);
  'targetUrl'?: (string);
  'attempt'?: (number);
  'statusCode'?: (number);
  'durationMs'?: (number);
  'error'?: (string);
  'outcome'?: (string);
  'createdAt'?: (string);
  'deliveryKind'?: (_switchboard_webhooks_v1_DeliveryKind);
  'deliveryOutcome'?: (_switchboard_webhooks_v1_DeliveryOutcome);
  'body'?: (string);
  'trigger'?: (string);
  'responseContentType'?: (string);
  'responseExcerpt'?: (string);
  'responseTruncated'?: (boolean);
  'request'?: (_switchboard_webhooks_v1_SentBody | null);
  '_error'?: "error";
  '_body'?: "body";
  '_responseContentType'?: "responseContentType";
  '_responseExcerpt'?: "responseExcerpt";
  '_request'?: "request";
}

export interface Delivery__Output {
  'id': (string);
  'messageId': (string);
  'kind': (string);
  'subscriptionId': (string);
  'applicationId': (string);
  'accountId': (string);
  'event': (string);
  'targetUrl': (string);
  'attempt': (number);
  'statusCode': (number);
  'durationMs': (number);
  'error'?: (string);
  'outcome': (string);
  'createdAt': (string);
  'deliveryKind': (_switchboard_webhooks_v1_DeliveryKind__Output);
  'deliveryOutcome': (_switchboard_webhooks_v1_DeliveryOutcome__Output);
  'body'?: (string);
  'trigger': (string);
  'responseContentType'?: (string);
  'responseExcerpt'?: (string);
  'responseTruncated': (boolean);
  'request'?: (_switchboard_webhooks_v1_SentBody__Output | null);
  '_error'?: "error";
  '_body'?: "body";
  '_responseContentType'?: "responseContentType";
  '_responseExcerpt'?: "responseExcerpt";
  '_request'?: "request";
}
