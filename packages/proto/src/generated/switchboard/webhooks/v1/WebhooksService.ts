// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { CreateAlertTriggerRequest as _switchboard_webhooks_v1_CreateAlertTriggerRequest, CreateAlertTriggerRequest__Output as _switchboard_webhooks_v1_CreateAlertTriggerRequest__Output } from '../../../switchboard/webhooks/v1/CreateAlertTriggerRequest.ts';
import type { CreateAlertTriggerResponse as _switchboard_webhooks_v1_CreateAlertTriggerResponse, CreateAlertTriggerResponse__Output as _switchboard_webhooks_v1_CreateAlertTriggerResponse__Output } from '../../../switchboard/webhooks/v1/CreateAlertTriggerResponse.ts';
import type { CreateSubscriptionRequest as _switchboard_webhooks_v1_CreateSubscriptionRequest, CreateSubscriptionRequest__Output as _switchboard_webhooks_v1_CreateSubscriptionRequest__Output } from '../../../switchboard/webhooks/v1/CreateSubscriptionRequest.ts';
import type { CreateSubscriptionResponse as _switchboard_webhooks_v1_CreateSubscriptionResponse, CreateSubscriptionResponse__Output as _switchboard_webhooks_v1_CreateSubscriptionResponse__Output } from '../../../switchboard/webhooks/v1/CreateSubscriptionResponse.ts';
import type { CreateUsageTriggerRequest as _switchboard_webhooks_v1_CreateUsageTriggerRequest, CreateUsageTriggerRequest__Output as _switchboard_webhooks_v1_CreateUsageTriggerRequest__Output } from '../../../switchboard/webhooks/v1/CreateUsageTriggerRequest.ts';
import type { CreateUsageTriggerResponse as _switchboard_webhooks_v1_CreateUsageTriggerResponse, CreateUsageTriggerResponse__Output as _switchboard_webhooks_v1_CreateUsageTriggerResponse__Output } from '../../../switchboard/webhooks/v1/CreateUsageTriggerResponse.ts';
import type { DeleteAlertTriggerRequest as _switchboard_webhooks_v1_DeleteAlertTriggerRequest, DeleteAlertTriggerRequest__Output as _switchboard_webhooks_v1_DeleteAlertTriggerRequest__Output } from '../../../switchboard/webhooks/v1/DeleteAlertTriggerRequest.ts';
import type { DeleteAlertTriggerResponse as _switchboard_webhooks_v1_DeleteAlertTriggerResponse, DeleteAlertTriggerResponse__Output as _switchboard_webhooks_v1_DeleteAlertTriggerResponse__Output } from '../../../switchboard/webhooks/v1/DeleteAlertTriggerResponse.ts';
import type { DeleteSubscriptionRequest as _switchboard_webhooks_v1_DeleteSubscriptionRequest, DeleteSubscriptionRequest__Output as _switchboard_webhooks_v1_DeleteSubscriptionRequest__Output } from '../../../switchboard/webhooks/v1/DeleteSubscriptionRequest.ts';
import type { DeleteSubscriptionResponse as _switchboard_webhooks_v1_DeleteSubscriptionResponse, DeleteSubscriptionResponse__Output as _switchboard_webhooks_v1_DeleteSubscriptionResponse__Output } from '../../../switchboard/webhooks/v1/DeleteSubscriptionResponse.ts';
import type { DeleteUsageTriggerRequest as _switchboard_webhooks_v1_DeleteUsageTriggerRequest, DeleteUsageTriggerRequest__Output as _switchboard_webhooks_v1_DeleteUsageTriggerRequest__Output } from '../../../switchboard/webhooks/v1/DeleteUsageTriggerRequest.ts';
import type { DeleteUsageTriggerResponse as _switchboard_webhooks_v1_DeleteUsageTriggerResponse, DeleteUsageTriggerResponse__Output as _switchboard_webhooks_v1_DeleteUsageTriggerResponse__Output } from '../../../switchboard/webhooks/v1/DeleteUsageTriggerResponse.ts';
import type { GetAlertRequest as _switchboard_webhooks_v1_GetAlertRequest, GetAlertRequest__Output as _switchboard_webhooks_v1_GetAlertRequest__Output } from '../../../switchboard/webhooks/v1/GetAlertRequest.ts';
import type { GetAlertResponse as _switchboard_webhooks_v1_GetAlertResponse, GetAlertResponse__Output as _switchboard_webhooks_v1_GetAlertResponse__Output } from '../../../switchboard/webhooks/v1/GetAlertResponse.ts';
import type { GetAlertTriggerRequest as _switchboard_webhooks_v1_GetAlertTriggerRequest, GetAlertTriggerRequest__Output as _switchboard_webhooks_v1_GetAlertTriggerRequest__Output } from '../../../switchboard/webhooks/v1/GetAlertTriggerRequest.ts';
import type { GetAlertTriggerResponse as _switchboard_webhooks_v1_GetAlertTriggerResponse, GetAlertTriggerResponse__Output as _switchboard_webhooks_v1_GetAlertTriggerResponse__Output } from '../../../switchboard/webhooks/v1/GetAlertTriggerResponse.ts';
import type { GetDeliveryRequest as _switchboard_webhooks_v1_GetDeliveryRequest, GetDeliveryRequest__Output as _switchboard_webhooks_v1_GetDeliveryRequest__Output } from '../../../switchboard/webhooks/v1/GetDeliveryRequest.ts';
import type { GetDeliveryResponse as _switchboard_webhooks_v1_GetDeliveryResponse, GetDeliveryResponse__Output as _switchboard_webhooks_v1_GetDeliveryResponse__Output } from '../../../switchboard/webhooks/v1/GetDeliveryResponse.ts';
import type { GetDeliveryStatsRequest as _switchboard_webhooks_v1_GetDeliveryStatsRequest, GetDeliveryStatsRequest__Output as _switchboard_webhooks_v1_GetDeliveryStatsRequest__Output } from '../../../switchboard/webhooks/v1/GetDeliveryStatsRequest.ts';
import type { GetDeliveryStatsResponse as _switchboard_webhooks_v1_GetDeliveryStatsResponse, GetDeliveryStatsResponse__Output as _switchboard_webhooks_v1_GetDeliveryStatsResponse__Output } from '../../../switchboard/webhooks/v1/GetDeliveryStatsResponse.ts';
import type { GetDeliveryTargetRequest as _switchboard_webhooks_v1_GetDeliveryTargetRequest, GetDeliveryTargetRequest__Output as _switchboard_webhooks_v1_GetDeliveryTargetRequest__Output } from '../../../switchboard/webhooks/v1/GetDeliveryTargetRequest.ts';
import type { GetRecoveryRequest as _switchboard_webhooks_v1_GetRecoveryRequest, GetRecoveryRequest__Output as _switchboard_webhooks_v1_GetRecoveryRequest__Output } from '../../../switchboard/webhooks/v1/GetRecoveryRequest.ts';
import type { GetRecoveryResponse as _switchboard_webhooks_v1_GetRecoveryResponse, GetRecoveryResponse__Output as _switchboard_webhooks_v1_GetRecoveryResponse__Output } from '../../../switchboard/webhooks/v1/GetRecoveryResponse.ts';
import type { GetSecretRequest as _switchboard_webhooks_v1_GetSecretRequest, GetSecretRequest__Output as _switchboard_webhooks_v1_GetSecretRequest__Output } from '../../../switchboard/webhooks/v1/GetSecretRequest.ts';
import type { GetSecretResponse as _switchboard_webhooks_v1_GetSecretResponse, GetSecretResponse__Output as _switchboard_webhooks_v1_GetSecretResponse__Output } from '../../../switchboard/webhooks/v1/GetSecretResponse.ts';
import type { GetSessionRequest as _switchboard_webhooks_v1_GetSessionRequest, GetSessionRequest__Output as _switchboard_webhooks_v1_GetSessionRequest__Output } from '../../../switchboard/webhooks/v1/GetSessionRequest.ts';
import type { GetSessionResponse as _switchboard_webhooks_v1_GetSessionResponse, GetSessionResponse__Output as _switchboard_webhooks_v1_GetSessionResponse__Output } from '../../../switchboard/webhooks/v1/GetSessionResponse.ts';
import type { GetSubscriptionRequest as _switchboard_webhooks_v1_GetSubscriptionRequest, GetSubscriptionRequest__Output as _switchboard_webhooks_v1_GetSubscriptionRequest__Output } from '../../../switchboard/webhooks/v1/GetSubscriptionRequest.ts';
import type { GetSubscriptionResponse as _switchboard_webhooks_v1_GetSubscriptionResponse, GetSubscriptionResponse__Output as _switchboard_webhooks_v1_GetSubscriptionResponse__Output } from '../../../switchboard/webhooks/v1/GetSubscriptionResponse.ts';
import type { GetUsageRequest as _switchboard_webhooks_v1_GetUsageRequest, GetUsageRequest__Output as _switchboard_webhooks_v1_GetUsageRequest__Output } from '../../../switchboard/webhooks/v1/GetUsageRequest.ts';
import type { GetUsageResponse as _switchboard_webhooks_v1_GetUsageResponse, GetUsageResponse__Output as _switchboard_webhooks_v1_GetUsageResponse__Output } from '../../../switchboard/webhooks/v1/GetUsageResponse.ts';
import type { GetUsageTriggerRequest as _switchboard_webhooks_v1_GetUsageTriggerRequest, GetUsageTriggerRequest__Output as _switchboard_webhooks_v1_GetUsageTriggerRequest__Output } from '../../../switchboard/webhooks/v1/GetUsageTriggerRequest.ts';
import type { GetUsageTriggerResponse as _switchboard_webhooks_v1_GetUsageTriggerResponse, GetUsageTriggerResponse__Output as _switchboard_webhooks_v1_GetUsageTriggerResponse__Output } from '../../../switchboard/webhooks/v1/GetUsageTriggerResponse.ts';
import type { ListAlertTriggersRequest as _switchboard_webhooks_v1_ListAlertTriggersRequest, ListAlertTriggersRequest__Output as _switchboard_webhooks_v1_ListAlertTriggersRequest__Output } from '../../../switchboard/webhooks/v1/ListAlertTriggersRequest.ts';
import type { ListAlertTriggersResponse as _switchboard_webhooks_v1_ListAlertTriggersResponse, ListAlertTriggersResponse__Output as _switchboard_webhooks_v1_ListAlertTriggersResponse__Output } from '../../../switchboard/webhooks/v1/ListAlertTriggersResponse.ts';
import type { ListAlertsRequest as _switchboard_webhooks_v1_ListAlertsRequest, ListAlertsRequest__Output as _switchboard_webhooks_v1_ListAlertsRequest__Output } from '../../../switchboard/webhooks/v1/ListAlertsRequest.ts';
import type { ListAlertsResponse as _switchboard_webhooks_v1_ListAlertsResponse, ListAlertsResponse__Output as _switchboard_webhooks_v1_ListAlertsResponse__Output } from '../../../switchboard/webhooks/v1/ListAlertsResponse.ts';
import type { ListAuditEventsRequest as _switchboard_applications_v1_ListAuditEventsRequest, ListAuditEventsRequest__Output as _switchboard_applications_v1_ListAuditEventsRequest__Output } from '../../../switchboard/applications/v1/ListAuditEventsRequest.ts';
import type { ListAuditEventsResponse as _switchboard_applications_v1_ListAuditEventsResponse, ListAuditEventsResponse__Output as _switchboard_applications_v1_ListAuditEventsResponse__Output } from '../../../switchboard/applications/v1/ListAuditEventsResponse.ts';
import type { ListDeliveriesRequest as _switchboard_webhooks_v1_ListDeliveriesRequest, ListDeliveriesRequest__Output as _switchboard_webhooks_v1_ListDeliveriesRequest__Output } from '../../../switchboard/webhooks/v1/ListDeliveriesRequest.ts';
import type { ListDeliveriesResponse as _switchboard_webhooks_v1_ListDeliveriesResponse, ListDeliveriesResponse__Output as _switchboard_webhooks_v1_ListDeliveriesResponse__Output } from '../../../switchboard/webhooks/v1/ListDeliveriesResponse.ts';
import type { ListSessionsRequest as _switchboard_webhooks_v1_ListSessionsRequest, ListSessionsRequest__Output as _switchboard_webhooks_v1_ListSessionsRequest__Output } from '../../../switchboard/webhooks/v1/ListSessionsRequest.ts';
import type { ListSessionsResponse as _switchboard_webhooks_v1_ListSessionsResponse, ListSessionsResponse__Output as _switchboard_webhooks_v1_ListSessionsResponse__Output } from '../../../switchboard/webhooks/v1/ListSessionsResponse.ts';
import type { ListSubscriptionsRequest as _switchboard_webhooks_v1_ListSubscriptionsRequest, ListSubscriptionsRequest__Output as _switchboard_webhooks_v1_ListSubscriptionsRequest__Output } from '../../../switchboard/webhooks/v1/ListSubscriptionsRequest.ts';
import type { ListSubscriptionsResponse as _switchboard_webhooks_v1_ListSubscriptionsResponse, ListSubscriptionsResponse__Output as _switchboard_webhooks_v1_ListSubscriptionsResponse__Output } from '../../../switchboard/webhooks/v1/ListSubscriptionsResponse.ts';
import type { ListUsageTriggersRequest as _switchboard_webhooks_v1_ListUsageTriggersRequest, ListUsageTriggersRequest__Output as _switchboard_webhooks_v1_ListUsageTriggersRequest__Output } from '../../../switchboard/webhooks/v1/ListUsageTriggersRequest.ts';
import type { ListUsageTriggersResponse as _switchboard_webhooks_v1_ListUsageTriggersResponse, ListUsageTriggersResponse__Output as _switchboard_webhooks_v1_ListUsageTriggersResponse__Output } from '../../../switchboard/webhooks/v1/ListUsageTriggersResponse.ts';
import type { MatchSubscriptionsRequest as _switchboard_webhooks_v1_MatchSubscriptionsRequest, MatchSubscriptionsRequest__Output as _switchboard_webhooks_v1_MatchSubscriptionsRequest__Output } from '../../../switchboard/webhooks/v1/MatchSubscriptionsRequest.ts';
import type { MatchSubscriptionsResponse as _switchboard_webhooks_v1_MatchSubscriptionsResponse, MatchSubscriptionsResponse__Output as _switchboard_webhooks_v1_MatchSubscriptionsResponse__Output } from '../../../switchboard/webhooks/v1/MatchSubscriptionsResponse.ts';
import type { MatchedSubscription as _switchboard_webhooks_v1_MatchedSubscription, MatchedSubscription__Output as _switchboard_webhooks_v1_MatchedSubscription__Output } from '../../../switchboard/webhooks/v1/MatchedSubscription.ts';
import type { RecoverSubscriptionRequest as _switchboard_webhooks_v1_RecoverSubscriptionRequest, RecoverSubscriptionRequest__Output as _switchboard_webhooks_v1_RecoverSubscriptionRequest__Output } from '../../../switchboard/webhooks/v1/RecoverSubscriptionRequest.ts';
import type { RecoverSubscriptionResponse as _switchboard_webhooks_v1_RecoverSubscriptionResponse, RecoverSubscriptionResponse__Output as _switchboard_webhooks_v1_RecoverSubscriptionResponse__Output } from '../../../switchboard/webhooks/v1/RecoverSubscriptionResponse.ts';
import type { ResendDeliveryRequest as _switchboard_webhooks_v1_ResendDeliveryRequest, ResendDeliveryRequest__Output as _switchboard_webhooks_v1_ResendDeliveryRequest__Output } from '../../../switchboard/webhooks/v1/ResendDeliveryRequest.ts';
import type { ResendDeliveryResponse as _switchboard_webhooks_v1_ResendDeliveryResponse, ResendDeliveryResponse__Output as _switchboard_webhooks_v1_ResendDeliveryResponse__Output } from '../../../switchboard/webhooks/v1/ResendDeliveryResponse.ts';
import type { RotateSecretRequest as _switchboard_webhooks_v1_RotateSecretRequest, RotateSecretRequest__Output as _switchboard_webhooks_v1_RotateSecretRequest__Output } from '../../../switchboard/webhooks/v1/RotateSecretRequest.ts';
import type { RotateSecretResponse as _switchboard_webhooks_v1_RotateSecretResponse, RotateSecretResponse__Output as _switchboard_webhooks_v1_RotateSecretResponse__Output } from '../../../switchboard/webhooks/v1/RotateSecretResponse.ts';
import type { TestSubscriptionRequest as _switchboard_webhooks_v1_TestSubscriptionRequest, TestSubscriptionRequest__Output as _switchboard_webhooks_v1_TestSubscriptionRequest__Output } from '../../../switchboard/webhooks/v1/TestSubscriptionRequest.ts';
import type { TestSubscriptionResponse as _switchboard_webhooks_v1_TestSubscriptionResponse, TestSubscriptionResponse__Output as _switchboard_webhooks_v1_TestSubscriptionResponse__Output } from '../../../switchboard/webhooks/v1/TestSubscriptionResponse.ts';
import type { UpdateSubscriptionRequest as _switchboard_webhooks_v1_UpdateSubscriptionRequest, UpdateSubscriptionRequest__Output as _switchboard_webhooks_v1_UpdateSubscriptionRequest__Output } from '../../../switchboard/webhooks/v1/UpdateSubscriptionRequest.ts';
import type { UpdateSubscriptionResponse as _switchboard_webhooks_v1_UpdateSubscriptionResponse, UpdateSubscriptionResponse__Output as _switchboard_webhooks_v1_UpdateSubscriptionResponse__Output } from '../../../switchboard/webhooks/v1/UpdateSubscriptionResponse.ts';

export interface WebhooksServiceClient extends grpc.Client {
  CancelRecovery(argument: _switchboard_webhooks_v1_GetRecoveryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetRecoveryResponse__Output>): grpc.ClientUnaryCall;
  CancelRecovery(argument: _switchboard_webhooks_v1_GetRecoveryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetRecoveryResponse__Output>): grpc.ClientUnaryCall;
  CancelRecovery(argument: _switchboard_webhooks_v1_GetRecoveryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetRecoveryResponse__Output>): grpc.ClientUnaryCall;
  CancelRecovery(argument: _switchboard_webhooks_v1_GetRecoveryRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetRecoveryResponse__Output>): grpc.ClientUnaryCall;
  cancelRecovery(argument: _switchboard_webhooks_v1_GetRecoveryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetRecoveryResponse__Output>): grpc.ClientUnaryCall;
  cancelRecovery(argument: _switchboard_webhooks_v1_GetRecoveryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetRecoveryResponse__Output>): grpc.ClientUnaryCall;
  cancelRecovery(argument: _switchboard_webhooks_v1_GetRecoveryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetRecoveryResponse__Output>): grpc.ClientUnaryCall;
  cancelRecovery(argument: _switchboard_webhooks_v1_GetRecoveryRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetRecoveryResponse__Output>): grpc.ClientUnaryCall;
  
  CreateAlertTrigger(argument: _switchboard_webhooks_v1_CreateAlertTriggerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_CreateAlertTriggerResponse__Output>): grpc.ClientUnaryCall;
  CreateAlertTrigger(argument: _switchboard_webhooks_v1_CreateAlertTriggerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_CreateAlertTriggerResponse__Output>): grpc.ClientUnaryCall;
  CreateAlertTrigger(argument: _switchboard_webhooks_v1_CreateAlertTriggerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_CreateAlertTriggerResponse__Output>): grpc.ClientUnaryCall;
  CreateAlertTrigger(argument: _switchboard_webhooks_v1_CreateAlertTriggerRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_CreateAlertTriggerResponse__Output>): grpc.ClientUnaryCall;
  createAlertTrigger(argument: _switchboard_webhooks_v1_CreateAlertTriggerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_CreateAlertTriggerResponse__Output>): grpc.ClientUnaryCall;
  createAlertTrigger(argument: _switchboard_webhooks_v1_CreateAlertTriggerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_CreateAlertTriggerResponse__Output>): grpc.ClientUnaryCall;
  createAlertTrigger(argument: _switchboard_webhooks_v1_CreateAlertTriggerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_CreateAlertTriggerResponse__Output>): grpc.ClientUnaryCall;
  createAlertTrigger(argument: _switchboard_webhooks_v1_CreateAlertTriggerRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_CreateAlertTriggerResponse__Output>): grpc.ClientUnaryCall;
  
  CreateSubscription(argument: _switchboard_webhooks_v1_CreateSubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_CreateSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  CreateSubscription(argument: _switchboard_webhooks_v1_CreateSubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_CreateSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  CreateSubscription(argument: _switchboard_webhooks_v1_CreateSubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_CreateSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  CreateSubscription(argument: _switchboard_webhooks_v1_CreateSubscriptionRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_CreateSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  createSubscription(argument: _switchboard_webhooks_v1_CreateSubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_CreateSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  createSubscription(argument: _switchboard_webhooks_v1_CreateSubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_CreateSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  createSubscription(argument: _switchboard_webhooks_v1_CreateSubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_CreateSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  createSubscription(argument: _switchboard_webhooks_v1_CreateSubscriptionRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_CreateSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  
  CreateUsageTrigger(argument: _switchboard_webhooks_v1_CreateUsageTriggerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_CreateUsageTriggerResponse__Output>): grpc.ClientUnaryCall;
  CreateUsageTrigger(argument: _switchboard_webhooks_v1_CreateUsageTriggerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_CreateUsageTriggerResponse__Output>): grpc.ClientUnaryCall;
  CreateUsageTrigger(argument: _switchboard_webhooks_v1_CreateUsageTriggerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_CreateUsageTriggerResponse__Output>): grpc.ClientUnaryCall;
  CreateUsageTrigger(argument: _switchboard_webhooks_v1_CreateUsageTriggerRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_CreateUsageTriggerResponse__Output>): grpc.ClientUnaryCall;
  createUsageTrigger(argument: _switchboard_webhooks_v1_CreateUsageTriggerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_CreateUsageTriggerResponse__Output>): grpc.ClientUnaryCall;
  createUsageTrigger(argument: _switchboard_webhooks_v1_CreateUsageTriggerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_CreateUsageTriggerResponse__Output>): grpc.ClientUnaryCall;
  createUsageTrigger(argument: _switchboard_webhooks_v1_CreateUsageTriggerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_CreateUsageTriggerResponse__Output>): grpc.ClientUnaryCall;
  createUsageTrigger(argument: _switchboard_webhooks_v1_CreateUsageTriggerRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_CreateUsageTriggerResponse__Output>): grpc.ClientUnaryCall;
  
  DeleteAlertTrigger(argument: _switchboard_webhooks_v1_DeleteAlertTriggerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_DeleteAlertTriggerResponse__Output>): grpc.ClientUnaryCall;
  DeleteAlertTrigger(argument: _switchboard_webhooks_v1_DeleteAlertTriggerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_DeleteAlertTriggerResponse__Output>): grpc.ClientUnaryCall;
  DeleteAlertTrigger(argument: _switchboard_webhooks_v1_DeleteAlertTriggerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_DeleteAlertTriggerResponse__Output>): grpc.ClientUnaryCall;
  DeleteAlertTrigger(argument: _switchboard_webhooks_v1_DeleteAlertTriggerRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_DeleteAlertTriggerResponse__Output>): grpc.ClientUnaryCall;
  deleteAlertTrigger(argument: _switchboard_webhooks_v1_DeleteAlertTriggerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_DeleteAlertTriggerResponse__Output>): grpc.ClientUnaryCall;
  deleteAlertTrigger(argument: _switchboard_webhooks_v1_DeleteAlertTriggerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_DeleteAlertTriggerResponse__Output>): grpc.ClientUnaryCall;
  deleteAlertTrigger(argument: _switchboard_webhooks_v1_DeleteAlertTriggerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_DeleteAlertTriggerResponse__Output>): grpc.ClientUnaryCall;
  deleteAlertTrigger(argument: _switchboard_webhooks_v1_DeleteAlertTriggerRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_DeleteAlertTriggerResponse__Output>): grpc.ClientUnaryCall;
  
  DeleteSubscription(argument: _switchboard_webhooks_v1_DeleteSubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_DeleteSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  DeleteSubscription(argument: _switchboard_webhooks_v1_DeleteSubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_DeleteSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  DeleteSubscription(argument: _switchboard_webhooks_v1_DeleteSubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_DeleteSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  DeleteSubscription(argument: _switchboard_webhooks_v1_DeleteSubscriptionRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_DeleteSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  deleteSubscription(argument: _switchboard_webhooks_v1_DeleteSubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_DeleteSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  deleteSubscription(argument: _switchboard_webhooks_v1_DeleteSubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_DeleteSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  deleteSubscription(argument: _switchboard_webhooks_v1_DeleteSubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_DeleteSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  deleteSubscription(argument: _switchboard_webhooks_v1_DeleteSubscriptionRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_DeleteSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  
  DeleteUsageTrigger(argument: _switchboard_webhooks_v1_DeleteUsageTriggerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_DeleteUsageTriggerResponse__Output>): grpc.ClientUnaryCall;
  DeleteUsageTrigger(argument: _switchboard_webhooks_v1_DeleteUsageTriggerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_DeleteUsageTriggerResponse__Output>): grpc.ClientUnaryCall;
  DeleteUsageTrigger(argument: _switchboard_webhooks_v1_DeleteUsageTriggerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_DeleteUsageTriggerResponse__Output>): grpc.ClientUnaryCall;
  DeleteUsageTrigger(argument: _switchboard_webhooks_v1_DeleteUsageTriggerRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_DeleteUsageTriggerResponse__Output>): grpc.ClientUnaryCall;
  deleteUsageTrigger(argument: _switchboard_webhooks_v1_DeleteUsageTriggerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_DeleteUsageTriggerResponse__Output>): grpc.ClientUnaryCall;
  deleteUsageTrigger(argument: _switchboard_webhooks_v1_DeleteUsageTriggerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_DeleteUsageTriggerResponse__Output>): grpc.ClientUnaryCall;
  deleteUsageTrigger(argument: _switchboard_webhooks_v1_DeleteUsageTriggerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_DeleteUsageTriggerResponse__Output>): grpc.ClientUnaryCall;
  deleteUsageTrigger(argument: _switchboard_webhooks_v1_DeleteUsageTriggerRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_DeleteUsageTriggerResponse__Output>): grpc.ClientUnaryCall;
  
  GetAlert(argument: _switchboard_webhooks_v1_GetAlertRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetAlertResponse__Output>): grpc.ClientUnaryCall;
  GetAlert(argument: _switchboard_webhooks_v1_GetAlertRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetAlertResponse__Output>): grpc.ClientUnaryCall;
  GetAlert(argument: _switchboard_webhooks_v1_GetAlertRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetAlertResponse__Output>): grpc.ClientUnaryCall;
  GetAlert(argument: _switchboard_webhooks_v1_GetAlertRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetAlertResponse__Output>): grpc.ClientUnaryCall;
  getAlert(argument: _switchboard_webhooks_v1_GetAlertRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetAlertResponse__Output>): grpc.ClientUnaryCall;
  getAlert(argument: _switchboard_webhooks_v1_GetAlertRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetAlertResponse__Output>): grpc.ClientUnaryCall;
  getAlert(argument: _switchboard_webhooks_v1_GetAlertRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetAlertResponse__Output>): grpc.ClientUnaryCall;
  getAlert(argument: _switchboard_webhooks_v1_GetAlertRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetAlertResponse__Output>): grpc.ClientUnaryCall;
  
  GetAlertTrigger(argument: _switchboard_webhooks_v1_GetAlertTriggerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetAlertTriggerResponse__Output>): grpc.ClientUnaryCall;
  GetAlertTrigger(argument: _switchboard_webhooks_v1_GetAlertTriggerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetAlertTriggerResponse__Output>): grpc.ClientUnaryCall;
  GetAlertTrigger(argument: _switchboard_webhooks_v1_GetAlertTriggerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetAlertTriggerResponse__Output>): grpc.ClientUnaryCall;
  GetAlertTrigger(argument: _switchboard_webhooks_v1_GetAlertTriggerRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetAlertTriggerResponse__Output>): grpc.ClientUnaryCall;
  getAlertTrigger(argument: _switchboard_webhooks_v1_GetAlertTriggerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetAlertTriggerResponse__Output>): grpc.ClientUnaryCall;
  getAlertTrigger(argument: _switchboard_webhooks_v1_GetAlertTriggerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetAlertTriggerResponse__Output>): grpc.ClientUnaryCall;
  getAlertTrigger(argument: _switchboard_webhooks_v1_GetAlertTriggerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetAlertTriggerResponse__Output>): grpc.ClientUnaryCall;
  getAlertTrigger(argument: _switchboard_webhooks_v1_GetAlertTriggerRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetAlertTriggerResponse__Output>): grpc.ClientUnaryCall;
  
  GetDelivery(argument: _switchboard_webhooks_v1_GetDeliveryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetDeliveryResponse__Output>): grpc.ClientUnaryCall;
  GetDelivery(argument: _switchboard_webhooks_v1_GetDeliveryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetDeliveryResponse__Output>): grpc.ClientUnaryCall;
  GetDelivery(argument: _switchboard_webhooks_v1_GetDeliveryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetDeliveryResponse__Output>): grpc.ClientUnaryCall;
  GetDelivery(argument: _switchboard_webhooks_v1_GetDeliveryRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetDeliveryResponse__Output>): grpc.ClientUnaryCall;
  getDelivery(argument: _switchboard_webhooks_v1_GetDeliveryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetDeliveryResponse__Output>): grpc.ClientUnaryCall;
  getDelivery(argument: _switchboard_webhooks_v1_GetDeliveryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetDeliveryResponse__Output>): grpc.ClientUnaryCall;
  getDelivery(argument: _switchboard_webhooks_v1_GetDeliveryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetDeliveryResponse__Output>): grpc.ClientUnaryCall;
  getDelivery(argument: _switchboard_webhooks_v1_GetDeliveryRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetDeliveryResponse__Output>): grpc.ClientUnaryCall;
  
  GetDeliveryStats(argument: _switchboard_webhooks_v1_GetDeliveryStatsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetDeliveryStatsResponse__Output>): grpc.ClientUnaryCall;
  GetDeliveryStats(argument: _switchboard_webhooks_v1_GetDeliveryStatsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetDeliveryStatsResponse__Output>): grpc.ClientUnaryCall;
  GetDeliveryStats(argument: _switchboard_webhooks_v1_GetDeliveryStatsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetDeliveryStatsResponse__Output>): grpc.ClientUnaryCall;
  GetDeliveryStats(argument: _switchboard_webhooks_v1_GetDeliveryStatsRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetDeliveryStatsResponse__Output>): grpc.ClientUnaryCall;
  getDeliveryStats(argument: _switchboard_webhooks_v1_GetDeliveryStatsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetDeliveryStatsResponse__Output>): grpc.ClientUnaryCall;
  getDeliveryStats(argument: _switchboard_webhooks_v1_GetDeliveryStatsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetDeliveryStatsResponse__Output>): grpc.ClientUnaryCall;
  getDeliveryStats(argument: _switchboard_webhooks_v1_GetDeliveryStatsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetDeliveryStatsResponse__Output>): grpc.ClientUnaryCall;
  getDeliveryStats(argument: _switchboard_webhooks_v1_GetDeliveryStatsRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetDeliveryStatsResponse__Output>): grpc.ClientUnaryCall;
  
  GetDeliveryTarget(argument: _switchboard_webhooks_v1_GetDeliveryTargetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_MatchedSubscription__Output>): grpc.ClientUnaryCall;
  GetDeliveryTarget(argument: _switchboard_webhooks_v1_GetDeliveryTargetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_MatchedSubscription__Output>): grpc.ClientUnaryCall;
  GetDeliveryTarget(argument: _switchboard_webhooks_v1_GetDeliveryTargetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_MatchedSubscription__Output>): grpc.ClientUnaryCall;
  GetDeliveryTarget(argument: _switchboard_webhooks_v1_GetDeliveryTargetRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_MatchedSubscription__Output>): grpc.ClientUnaryCall;
  getDeliveryTarget(argument: _switchboard_webhooks_v1_GetDeliveryTargetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_MatchedSubscription__Output>): grpc.ClientUnaryCall;
  getDeliveryTarget(argument: _switchboard_webhooks_v1_GetDeliveryTargetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_MatchedSubscription__Output>): grpc.ClientUnaryCall;
  getDeliveryTarget(argument: _switchboard_webhooks_v1_GetDeliveryTargetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_MatchedSubscription__Output>): grpc.ClientUnaryCall;
  getDeliveryTarget(argument: _switchboard_webhooks_v1_GetDeliveryTargetRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_MatchedSubscription__Output>): grpc.ClientUnaryCall;
  
  GetRecovery(argument: _switchboard_webhooks_v1_GetRecoveryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetRecoveryResponse__Output>): grpc.ClientUnaryCall;
  GetRecovery(argument: _switchboard_webhooks_v1_GetRecoveryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetRecoveryResponse__Output>): grpc.ClientUnaryCall;
  GetRecovery(argument: _switchboard_webhooks_v1_GetRecoveryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetRecoveryResponse__Output>): grpc.ClientUnaryCall;
  GetRecovery(argument: _switchboard_webhooks_v1_GetRecoveryRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetRecoveryResponse__Output>): grpc.ClientUnaryCall;
  getRecovery(argument: _switchboard_webhooks_v1_GetRecoveryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetRecoveryResponse__Output>): grpc.ClientUnaryCall;
  getRecovery(argument: _switchboard_webhooks_v1_GetRecoveryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetRecoveryResponse__Output>): grpc.ClientUnaryCall;
  getRecovery(argument: _switchboard_webhooks_v1_GetRecoveryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetRecoveryResponse__Output>): grpc.ClientUnaryCall;
  getRecovery(argument: _switchboard_webhooks_v1_GetRecoveryRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetRecoveryResponse__Output>): grpc.ClientUnaryCall;
  
  GetSecret(argument: _switchboard_webhooks_v1_GetSecretRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetSecretResponse__Output>): grpc.ClientUnaryCall;
  GetSecret(argument: _switchboard_webhooks_v1_GetSecretRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetSecretResponse__Output>): grpc.ClientUnaryCall;
  GetSecret(argument: _switchboard_webhooks_v1_GetSecretRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetSecretResponse__Output>): grpc.ClientUnaryCall;
  GetSecret(argument: _switchboard_webhooks_v1_GetSecretRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetSecretResponse__Output>): grpc.ClientUnaryCall;
  getSecret(argument: _switchboard_webhooks_v1_GetSecretRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetSecretResponse__Output>): grpc.ClientUnaryCall;
  getSecret(argument: _switchboard_webhooks_v1_GetSecretRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetSecretResponse__Output>): grpc.ClientUnaryCall;
  getSecret(argument: _switchboard_webhooks_v1_GetSecretRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetSecretResponse__Output>): grpc.ClientUnaryCall;
  getSecret(argument: _switchboard_webhooks_v1_GetSecretRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetSecretResponse__Output>): grpc.ClientUnaryCall;
  
  GetSession(argument: _switchboard_webhooks_v1_GetSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetSessionResponse__Output>): grpc.ClientUnaryCall;
  GetSession(argument: _switchboard_webhooks_v1_GetSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetSessionResponse__Output>): grpc.ClientUnaryCall;
  GetSession(argument: _switchboard_webhooks_v1_GetSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetSessionResponse__Output>): grpc.ClientUnaryCall;
  GetSession(argument: _switchboard_webhooks_v1_GetSessionRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetSessionResponse__Output>): grpc.ClientUnaryCall;
  getSession(argument: _switchboard_webhooks_v1_GetSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetSessionResponse__Output>): grpc.ClientUnaryCall;
  getSession(argument: _switchboard_webhooks_v1_GetSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetSessionResponse__Output>): grpc.ClientUnaryCall;
  getSession(argument: _switchboard_webhooks_v1_GetSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetSessionResponse__Output>): grpc.ClientUnaryCall;
  getSession(argument: _switchboard_webhooks_v1_GetSessionRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetSessionResponse__Output>): grpc.ClientUnaryCall;
  
  GetSubscription(argument: _switchboard_webhooks_v1_GetSubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  GetSubscription(argument: _switchboard_webhooks_v1_GetSubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  GetSubscription(argument: _switchboard_webhooks_v1_GetSubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  GetSubscription(argument: _switchboard_webhooks_v1_GetSubscriptionRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  getSubscription(argument: _switchboard_webhooks_v1_GetSubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  getSubscription(argument: _switchboard_webhooks_v1_GetSubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  getSubscription(argument: _switchboard_webhooks_v1_GetSubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  getSubscription(argument: _switchboard_webhooks_v1_GetSubscriptionRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  
  GetUsage(argument: _switchboard_webhooks_v1_GetUsageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetUsageResponse__Output>): grpc.ClientUnaryCall;
  GetUsage(argument: _switchboard_webhooks_v1_GetUsageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetUsageResponse__Output>): grpc.ClientUnaryCall;
  GetUsage(argument: _switchboard_webhooks_v1_GetUsageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetUsageResponse__Output>): grpc.ClientUnaryCall;
  GetUsage(argument: _switchboard_webhooks_v1_GetUsageRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetUsageResponse__Output>): grpc.ClientUnaryCall;
  getUsage(argument: _switchboard_webhooks_v1_GetUsageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetUsageResponse__Output>): grpc.ClientUnaryCall;
  getUsage(argument: _switchboard_webhooks_v1_GetUsageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetUsageResponse__Output>): grpc.ClientUnaryCall;
  getUsage(argument: _switchboard_webhooks_v1_GetUsageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetUsageResponse__Output>): grpc.ClientUnaryCall;
  getUsage(argument: _switchboard_webhooks_v1_GetUsageRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetUsageResponse__Output>): grpc.ClientUnaryCall;
  
  GetUsageTrigger(argument: _switchboard_webhooks_v1_GetUsageTriggerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetUsageTriggerResponse__Output>): grpc.ClientUnaryCall;
  GetUsageTrigger(argument: _switchboard_webhooks_v1_GetUsageTriggerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetUsageTriggerResponse__Output>): grpc.ClientUnaryCall;
  GetUsageTrigger(argument: _switchboard_webhooks_v1_GetUsageTriggerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetUsageTriggerResponse__Output>): grpc.ClientUnaryCall;
  GetUsageTrigger(argument: _switchboard_webhooks_v1_GetUsageTriggerRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetUsageTriggerResponse__Output>): grpc.ClientUnaryCall;
  getUsageTrigger(argument: _switchboard_webhooks_v1_GetUsageTriggerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetUsageTriggerResponse__Output>): grpc.ClientUnaryCall;
  getUsageTrigger(argument: _switchboard_webhooks_v1_GetUsageTriggerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetUsageTriggerResponse__Output>): grpc.ClientUnaryCall;
  getUsageTrigger(argument: _switchboard_webhooks_v1_GetUsageTriggerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetUsageTriggerResponse__Output>): grpc.ClientUnaryCall;
  getUsageTrigger(argument: _switchboard_webhooks_v1_GetUsageTriggerRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_GetUsageTriggerResponse__Output>): grpc.ClientUnaryCall;
  
  ListAlertTriggers(argument: _switchboard_webhooks_v1_ListAlertTriggersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListAlertTriggersResponse__Output>): grpc.ClientUnaryCall;
  ListAlertTriggers(argument: _switchboard_webhooks_v1_ListAlertTriggersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListAlertTriggersResponse__Output>): grpc.ClientUnaryCall;
  ListAlertTriggers(argument: _switchboard_webhooks_v1_ListAlertTriggersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListAlertTriggersResponse__Output>): grpc.ClientUnaryCall;
  ListAlertTriggers(argument: _switchboard_webhooks_v1_ListAlertTriggersRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListAlertTriggersResponse__Output>): grpc.ClientUnaryCall;
  listAlertTriggers(argument: _switchboard_webhooks_v1_ListAlertTriggersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListAlertTriggersResponse__Output>): grpc.ClientUnaryCall;
  listAlertTriggers(argument: _switchboard_webhooks_v1_ListAlertTriggersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListAlertTriggersResponse__Output>): grpc.ClientUnaryCall;
  listAlertTriggers(argument: _switchboard_webhooks_v1_ListAlertTriggersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListAlertTriggersResponse__Output>): grpc.ClientUnaryCall;
  listAlertTriggers(argument: _switchboard_webhooks_v1_ListAlertTriggersRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListAlertTriggersResponse__Output>): grpc.ClientUnaryCall;
  
  ListAlerts(argument: _switchboard_webhooks_v1_ListAlertsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListAlertsResponse__Output>): grpc.ClientUnaryCall;
  ListAlerts(argument: _switchboard_webhooks_v1_ListAlertsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListAlertsResponse__Output>): grpc.ClientUnaryCall;
  ListAlerts(argument: _switchboard_webhooks_v1_ListAlertsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListAlertsResponse__Output>): grpc.ClientUnaryCall;
  ListAlerts(argument: _switchboard_webhooks_v1_ListAlertsRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListAlertsResponse__Output>): grpc.ClientUnaryCall;
  listAlerts(argument: _switchboard_webhooks_v1_ListAlertsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListAlertsResponse__Output>): grpc.ClientUnaryCall;
  listAlerts(argument: _switchboard_webhooks_v1_ListAlertsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListAlertsResponse__Output>): grpc.ClientUnaryCall;
  listAlerts(argument: _switchboard_webhooks_v1_ListAlertsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListAlertsResponse__Output>): grpc.ClientUnaryCall;
  listAlerts(argument: _switchboard_webhooks_v1_ListAlertsRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListAlertsResponse__Output>): grpc.ClientUnaryCall;
  
  ListAuditEvents(argument: _switchboard_applications_v1_ListAuditEventsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ListAuditEventsResponse__Output>): grpc.ClientUnaryCall;
  ListAuditEvents(argument: _switchboard_applications_v1_ListAuditEventsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_ListAuditEventsResponse__Output>): grpc.ClientUnaryCall;
  ListAuditEvents(argument: _switchboard_applications_v1_ListAuditEventsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ListAuditEventsResponse__Output>): grpc.ClientUnaryCall;
  ListAuditEvents(argument: _switchboard_applications_v1_ListAuditEventsRequest, callback: grpc.requestCallback<_switchboard_applications_v1_ListAuditEventsResponse__Output>): grpc.ClientUnaryCall;
  listAuditEvents(argument: _switchboard_applications_v1_ListAuditEventsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ListAuditEventsResponse__Output>): grpc.ClientUnaryCall;
  listAuditEvents(argument: _switchboard_applications_v1_ListAuditEventsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_ListAuditEventsResponse__Output>): grpc.ClientUnaryCall;
  listAuditEvents(argument: _switchboard_applications_v1_ListAuditEventsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ListAuditEventsResponse__Output>): grpc.ClientUnaryCall;
  listAuditEvents(argument: _switchboard_applications_v1_ListAuditEventsRequest, callback: grpc.requestCallback<_switchboard_applications_v1_ListAuditEventsResponse__Output>): grpc.ClientUnaryCall;
  
  ListDeliveries(argument: _switchboard_webhooks_v1_ListDeliveriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  ListDeliveries(argument: _switchboard_webhooks_v1_ListDeliveriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  ListDeliveries(argument: _switchboard_webhooks_v1_ListDeliveriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  ListDeliveries(argument: _switchboard_webhooks_v1_ListDeliveriesRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  listDeliveries(argument: _switchboard_webhooks_v1_ListDeliveriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  listDeliveries(argument: _switchboard_webhooks_v1_ListDeliveriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  listDeliveries(argument: _switchboard_webhooks_v1_ListDeliveriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  listDeliveries(argument: _switchboard_webhooks_v1_ListDeliveriesRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  
  ListSessions(argument: _switchboard_webhooks_v1_ListSessionsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListSessionsResponse__Output>): grpc.ClientUnaryCall;
  ListSessions(argument: _switchboard_webhooks_v1_ListSessionsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListSessionsResponse__Output>): grpc.ClientUnaryCall;
  ListSessions(argument: _switchboard_webhooks_v1_ListSessionsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListSessionsResponse__Output>): grpc.ClientUnaryCall;
  ListSessions(argument: _switchboard_webhooks_v1_ListSessionsRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListSessionsResponse__Output>): grpc.ClientUnaryCall;
  listSessions(argument: _switchboard_webhooks_v1_ListSessionsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListSessionsResponse__Output>): grpc.ClientUnaryCall;
  listSessions(argument: _switchboard_webhooks_v1_ListSessionsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListSessionsResponse__Output>): grpc.ClientUnaryCall;
  listSessions(argument: _switchboard_webhooks_v1_ListSessionsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListSessionsResponse__Output>): grpc.ClientUnaryCall;
  listSessions(argument: _switchboard_webhooks_v1_ListSessionsRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListSessionsResponse__Output>): grpc.ClientUnaryCall;
  
  ListSubscriptions(argument: _switchboard_webhooks_v1_ListSubscriptionsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListSubscriptionsResponse__Output>): grpc.ClientUnaryCall;
  ListSubscriptions(argument: _switchboard_webhooks_v1_ListSubscriptionsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListSubscriptionsResponse__Output>): grpc.ClientUnaryCall;
  ListSubscriptions(argument: _switchboard_webhooks_v1_ListSubscriptionsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListSubscriptionsResponse__Output>): grpc.ClientUnaryCall;
  ListSubscriptions(argument: _switchboard_webhooks_v1_ListSubscriptionsRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListSubscriptionsResponse__Output>): grpc.ClientUnaryCall;
  listSubscriptions(argument: _switchboard_webhooks_v1_ListSubscriptionsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListSubscriptionsResponse__Output>): grpc.ClientUnaryCall;
  listSubscriptions(argument: _switchboard_webhooks_v1_ListSubscriptionsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListSubscriptionsResponse__Output>): grpc.ClientUnaryCall;
  listSubscriptions(argument: _switchboard_webhooks_v1_ListSubscriptionsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListSubscriptionsResponse__Output>): grpc.ClientUnaryCall;
  listSubscriptions(argument: _switchboard_webhooks_v1_ListSubscriptionsRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListSubscriptionsResponse__Output>): grpc.ClientUnaryCall;
  
  ListUsageTriggers(argument: _switchboard_webhooks_v1_ListUsageTriggersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListUsageTriggersResponse__Output>): grpc.ClientUnaryCall;
  ListUsageTriggers(argument: _switchboard_webhooks_v1_ListUsageTriggersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListUsageTriggersResponse__Output>): grpc.ClientUnaryCall;
  ListUsageTriggers(argument: _switchboard_webhooks_v1_ListUsageTriggersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListUsageTriggersResponse__Output>): grpc.ClientUnaryCall;
  ListUsageTriggers(argument: _switchboard_webhooks_v1_ListUsageTriggersRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListUsageTriggersResponse__Output>): grpc.ClientUnaryCall;
  listUsageTriggers(argument: _switchboard_webhooks_v1_ListUsageTriggersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListUsageTriggersResponse__Output>): grpc.ClientUnaryCall;
  listUsageTriggers(argument: _switchboard_webhooks_v1_ListUsageTriggersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListUsageTriggersResponse__Output>): grpc.ClientUnaryCall;
  listUsageTriggers(argument: _switchboard_webhooks_v1_ListUsageTriggersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListUsageTriggersResponse__Output>): grpc.ClientUnaryCall;
  listUsageTriggers(argument: _switchboard_webhooks_v1_ListUsageTriggersRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_ListUsageTriggersResponse__Output>): grpc.ClientUnaryCall;
  
  MatchSubscriptions(argument: _switchboard_webhooks_v1_MatchSubscriptionsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_MatchSubscriptionsResponse__Output>): grpc.ClientUnaryCall;
  MatchSubscriptions(argument: _switchboard_webhooks_v1_MatchSubscriptionsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_MatchSubscriptionsResponse__Output>): grpc.ClientUnaryCall;
  MatchSubscriptions(argument: _switchboard_webhooks_v1_MatchSubscriptionsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_MatchSubscriptionsResponse__Output>): grpc.ClientUnaryCall;
  MatchSubscriptions(argument: _switchboard_webhooks_v1_MatchSubscriptionsRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_MatchSubscriptionsResponse__Output>): grpc.ClientUnaryCall;
  matchSubscriptions(argument: _switchboard_webhooks_v1_MatchSubscriptionsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_MatchSubscriptionsResponse__Output>): grpc.ClientUnaryCall;
  matchSubscriptions(argument: _switchboard_webhooks_v1_MatchSubscriptionsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_MatchSubscriptionsResponse__Output>): grpc.ClientUnaryCall;
  matchSubscriptions(argument: _switchboard_webhooks_v1_MatchSubscriptionsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_MatchSubscriptionsResponse__Output>): grpc.ClientUnaryCall;
  matchSubscriptions(argument: _switchboard_webhooks_v1_MatchSubscriptionsRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_MatchSubscriptionsResponse__Output>): grpc.ClientUnaryCall;
  
  RecoverSubscription(argument: _switchboard_webhooks_v1_RecoverSubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_RecoverSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  RecoverSubscription(argument: _switchboard_webhooks_v1_RecoverSubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_RecoverSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  RecoverSubscription(argument: _switchboard_webhooks_v1_RecoverSubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_RecoverSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  RecoverSubscription(argument: _switchboard_webhooks_v1_RecoverSubscriptionRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_RecoverSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  recoverSubscription(argument: _switchboard_webhooks_v1_RecoverSubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_RecoverSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  recoverSubscription(argument: _switchboard_webhooks_v1_RecoverSubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_RecoverSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  recoverSubscription(argument: _switchboard_webhooks_v1_RecoverSubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_RecoverSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  recoverSubscription(argument: _switchboard_webhooks_v1_RecoverSubscriptionRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_RecoverSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  
  ResendDelivery(argument: _switchboard_webhooks_v1_ResendDeliveryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_ResendDeliveryResponse__Output>): grpc.ClientUnaryCall;
  ResendDelivery(argument: _switchboard_webhooks_v1_ResendDeliveryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_ResendDeliveryResponse__Output>): grpc.ClientUnaryCall;
  ResendDelivery(argument: _switchboard_webhooks_v1_ResendDeliveryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_ResendDeliveryResponse__Output>): grpc.ClientUnaryCall;
  ResendDelivery(argument: _switchboard_webhooks_v1_ResendDeliveryRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_ResendDeliveryResponse__Output>): grpc.ClientUnaryCall;
  resendDelivery(argument: _switchboard_webhooks_v1_ResendDeliveryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_ResendDeliveryResponse__Output>): grpc.ClientUnaryCall;
  resendDelivery(argument: _switchboard_webhooks_v1_ResendDeliveryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_ResendDeliveryResponse__Output>): grpc.ClientUnaryCall;
  resendDelivery(argument: _switchboard_webhooks_v1_ResendDeliveryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_ResendDeliveryResponse__Output>): grpc.ClientUnaryCall;
  resendDelivery(argument: _switchboard_webhooks_v1_ResendDeliveryRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_ResendDeliveryResponse__Output>): grpc.ClientUnaryCall;
  
  RotateSecret(argument: _switchboard_webhooks_v1_RotateSecretRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_RotateSecretResponse__Output>): grpc.ClientUnaryCall;
  RotateSecret(argument: _switchboard_webhooks_v1_RotateSecretRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_RotateSecretResponse__Output>): grpc.ClientUnaryCall;
  RotateSecret(argument: _switchboard_webhooks_v1_RotateSecretRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_RotateSecretResponse__Output>): grpc.ClientUnaryCall;
  RotateSecret(argument: _switchboard_webhooks_v1_RotateSecretRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_RotateSecretResponse__Output>): grpc.ClientUnaryCall;
  rotateSecret(argument: _switchboard_webhooks_v1_RotateSecretRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_RotateSecretResponse__Output>): grpc.ClientUnaryCall;
  rotateSecret(argument: _switchboard_webhooks_v1_RotateSecretRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_RotateSecretResponse__Output>): grpc.ClientUnaryCall;
  rotateSecret(argument: _switchboard_webhooks_v1_RotateSecretRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_RotateSecretResponse__Output>): grpc.ClientUnaryCall;
  rotateSecret(argument: _switchboard_webhooks_v1_RotateSecretRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_RotateSecretResponse__Output>): grpc.ClientUnaryCall;
  
  TestSubscription(argument: _switchboard_webhooks_v1_TestSubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_TestSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  TestSubscription(argument: _switchboard_webhooks_v1_TestSubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_TestSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  TestSubscription(argument: _switchboard_webhooks_v1_TestSubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_TestSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  TestSubscription(argument: _switchboard_webhooks_v1_TestSubscriptionRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_TestSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  testSubscription(argument: _switchboard_webhooks_v1_TestSubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_TestSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  testSubscription(argument: _switchboard_webhooks_v1_TestSubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_TestSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  testSubscription(argument: _switchboard_webhooks_v1_TestSubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_TestSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  testSubscription(argument: _switchboard_webhooks_v1_TestSubscriptionRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_TestSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateSubscription(argument: _switchboard_webhooks_v1_UpdateSubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_UpdateSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  UpdateSubscription(argument: _switchboard_webhooks_v1_UpdateSubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_UpdateSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  UpdateSubscription(argument: _switchboard_webhooks_v1_UpdateSubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_UpdateSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  UpdateSubscription(argument: _switchboard_webhooks_v1_UpdateSubscriptionRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_UpdateSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  updateSubscription(argument: _switchboard_webhooks_v1_UpdateSubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_UpdateSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  updateSubscription(argument: _switchboard_webhooks_v1_UpdateSubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_webhooks_v1_UpdateSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  updateSubscription(argument: _switchboard_webhooks_v1_UpdateSubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_webhooks_v1_UpdateSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  updateSubscription(argument: _switchboard_webhooks_v1_UpdateSubscriptionRequest, callback: grpc.requestCallback<_switchboard_webhooks_v1_UpdateSubscriptionResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface WebhooksServiceHandlers extends grpc.UntypedServiceImplementation {
  CancelRecovery: grpc.handleUnaryCall<_switchboard_webhooks_v1_GetRecoveryRequest__Output, _switchboard_webhooks_v1_GetRecoveryResponse>;
  
  CreateAlertTrigger: grpc.handleUnaryCall<_switchboard_webhooks_v1_CreateAlertTriggerRequest__Output, _switchboard_webhooks_v1_CreateAlertTriggerResponse>;
  
  CreateSubscription: grpc.handleUnaryCall<_switchboard_webhooks_v1_CreateSubscriptionRequest__Output, _switchboard_webhooks_v1_CreateSubscriptionResponse>;
  
  CreateUsageTrigger: grpc.handleUnaryCall<_switchboard_webhooks_v1_CreateUsageTriggerRequest__Output, _switchboard_webhooks_v1_CreateUsageTriggerResponse>;
  
  DeleteAlertTrigger: grpc.handleUnaryCall<_switchboard_webhooks_v1_DeleteAlertTriggerRequest__Output, _switchboard_webhooks_v1_DeleteAlertTriggerResponse>;
  
  DeleteSubscription: grpc.handleUnaryCall<_switchboard_webhooks_v1_DeleteSubscriptionRequest__Output, _switchboard_webhooks_v1_DeleteSubscriptionResponse>;
  
  DeleteUsageTrigger: grpc.handleUnaryCall<_switchboard_webhooks_v1_DeleteUsageTriggerRequest__Output, _switchboard_webhooks_v1_DeleteUsageTriggerResponse>;
  
  GetAlert: grpc.handleUnaryCall<_switchboard_webhooks_v1_GetAlertRequest__Output, _switchboard_webhooks_v1_GetAlertResponse>;
  
  GetAlertTrigger: grpc.handleUnaryCall<_switchboard_webhooks_v1_GetAlertTriggerRequest__Output, _switchboard_webhooks_v1_GetAlertTriggerResponse>;
  
  GetDelivery: grpc.handleUnaryCall<_switchboard_webhooks_v1_GetDeliveryRequest__Output, _switchboard_webhooks_v1_GetDeliveryResponse>;
  
  GetDeliveryStats: grpc.handleUnaryCall<_switchboard_webhooks_v1_GetDeliveryStatsRequest__Output, _switchboard_webhooks_v1_GetDeliveryStatsResponse>;
  
  GetDeliveryTarget: grpc.handleUnaryCall<_switchboard_webhooks_v1_GetDeliveryTargetRequest__Output, _switchboard_webhooks_v1_MatchedSubscription>;
  
  GetRecovery: grpc.handleUnaryCall<_switchboard_webhooks_v1_GetRecoveryRequest__Output, _switchboard_webhooks_v1_GetRecoveryResponse>;
  
  GetSecret: grpc.handleUnaryCall<_switchboard_webhooks_v1_GetSecretRequest__Output, _switchboard_webhooks_v1_GetSecretResponse>;
  
  GetSession: grpc.handleUnaryCall<_switchboard_webhooks_v1_GetSessionRequest__Output, _switchboard_webhooks_v1_GetSessionResponse>;
  
  GetSubscription: grpc.handleUnaryCall<_switchboard_webhooks_v1_GetSubscriptionRequest__Output, _switchboard_webhooks_v1_GetSubscriptionResponse>;
  
  GetUsage: grpc.handleUnaryCall<_switchboard_webhooks_v1_GetUsageRequest__Output, _switchboard_webhooks_v1_GetUsageResponse>;
  
  GetUsageTrigger: grpc.handleUnaryCall<_switchboard_webhooks_v1_GetUsageTriggerRequest__Output, _switchboard_webhooks_v1_GetUsageTriggerResponse>;
  
  ListAlertTriggers: grpc.handleUnaryCall<_switchboard_webhooks_v1_ListAlertTriggersRequest__Output, _switchboard_webhooks_v1_ListAlertTriggersResponse>;
  
  ListAlerts: grpc.handleUnaryCall<_switchboard_webhooks_v1_ListAlertsRequest__Output, _switchboard_webhooks_v1_ListAlertsResponse>;
  
  ListAuditEvents: grpc.handleUnaryCall<_switchboard_applications_v1_ListAuditEventsRequest__Output, _switchboard_applications_v1_ListAuditEventsResponse>;
  
  ListDeliveries: grpc.handleUnaryCall<_switchboard_webhooks_v1_ListDeliveriesRequest__Output, _switchboard_webhooks_v1_ListDeliveriesResponse>;
  
  ListSessions: grpc.handleUnaryCall<_switchboard_webhooks_v1_ListSessionsRequest__Output, _switchboard_webhooks_v1_ListSessionsResponse>;
  
  ListSubscriptions: grpc.handleUnaryCall<_switchboard_webhooks_v1_ListSubscriptionsRequest__Output, _switchboard_webhooks_v1_ListSubscriptionsResponse>;
  
  ListUsageTriggers: grpc.handleUnaryCall<_switchboard_webhooks_v1_ListUsageTriggersRequest__Output, _switchboard_webhooks_v1_ListUsageTriggersResponse>;
  
  MatchSubscriptions: grpc.handleUnaryCall<_switchboard_webhooks_v1_MatchSubscriptionsRequest__Output, _switchboard_webhooks_v1_MatchSubscriptionsResponse>;
  
  RecoverSubscription: grpc.handleUnaryCall<_switchboard_webhooks_v1_RecoverSubscriptionRequest__Output, _switchboard_webhooks_v1_RecoverSubscriptionResponse>;
  
  ResendDelivery: grpc.handleUnaryCall<_switchboard_webhooks_v1_ResendDeliveryRequest__Output, _switchboard_webhooks_v1_ResendDeliveryResponse>;
  
  RotateSecret: grpc.handleUnaryCall<_switchboard_webhooks_v1_RotateSecretRequest__Output, _switchboard_webhooks_v1_RotateSecretResponse>;
  
  TestSubscription: grpc.handleUnaryCall<_switchboard_webhooks_v1_TestSubscriptionRequest__Output, _switchboard_webhooks_v1_TestSubscriptionResponse>;
  
  UpdateSubscription: grpc.handleUnaryCall<_switchboard_webhooks_v1_UpdateSubscriptionRequest__Output, _switchboard_webhooks_v1_UpdateSubscriptionResponse>;
  
}

export interface WebhooksServiceDefinition extends grpc.ServiceDefinition {
  CancelRecovery: MethodDefinition<_switchboard_webhooks_v1_GetRecoveryRequest, _switchboard_webhooks_v1_GetRecoveryResponse, _switchboard_webhooks_v1_GetRecoveryRequest__Output, _switchboard_webhooks_v1_GetRecoveryResponse__Output>
  CreateAlertTrigger: MethodDefinition<_switchboard_webhooks_v1_CreateAlertTriggerRequest, _switchboard_webhooks_v1_CreateAlertTriggerResponse, _switchboard_webhooks_v1_CreateAlertTriggerRequest__Output, _switchboard_webhooks_v1_CreateAlertTriggerResponse__Output>
  CreateSubscription: MethodDefinition<_switchboard_webhooks_v1_CreateSubscriptionRequest, _switchboard_webhooks_v1_CreateSubscriptionResponse, _switchboard_webhooks_v1_CreateSubscriptionRequest__Output, _switchboard_webhooks_v1_CreateSubscriptionResponse__Output>
  CreateUsageTrigger: MethodDefinition<_switchboard_webhooks_v1_CreateUsageTriggerRequest, _switchboard_webhooks_v1_CreateUsageTriggerResponse, _switchboard_webhooks_v1_CreateUsageTriggerRequest__Output, _switchboard_webhooks_v1_CreateUsageTriggerResponse__Output>
  DeleteAlertTrigger: MethodDefinition<_switchboard_webhooks_v1_DeleteAlertTriggerRequest, _switchboard_webhooks_v1_DeleteAlertTriggerResponse, _switchboard_webhooks_v1_DeleteAlertTriggerRequest__Output, _switchboard_webhooks_v1_DeleteAlertTriggerResponse__Output>
  DeleteSubscription: MethodDefinition<_switchboard_webhooks_v1_DeleteSubscriptionRequest, _switchboard_webhooks_v1_DeleteSubscriptionResponse, _switchboard_webhooks_v1_DeleteSubscriptionRequest__Output, _switchboard_webhooks_v1_DeleteSubscriptionResponse__Output>
  DeleteUsageTrigger: MethodDefinition<_switchboard_webhooks_v1_DeleteUsageTriggerRequest, _switchboard_webhooks_v1_DeleteUsageTriggerResponse, _switchboard_webhooks_v1_DeleteUsageTriggerRequest__Output, _switchboard_webhooks_v1_DeleteUsageTriggerResponse__Output>
  GetAlert: MethodDefinition<_switchboard_webhooks_v1_GetAlertRequest, _switchboard_webhooks_v1_GetAlertResponse, _switchboard_webhooks_v1_GetAlertRequest__Output, _switchboard_webhooks_v1_GetAlertResponse__Output>
  GetAlertTrigger: MethodDefinition<_switchboard_webhooks_v1_GetAlertTriggerRequest, _switchboard_webhooks_v1_GetAlertTriggerResponse, _switchboard_webhooks_v1_GetAlertTriggerRequest__Output, _switchboard_webhooks_v1_GetAlertTriggerResponse__Output>
  GetDelivery: MethodDefinition<_switchboard_webhooks_v1_GetDeliveryRequest, _switchboard_webhooks_v1_GetDeliveryResponse, _switchboard_webhooks_v1_GetDeliveryRequest__Output, _switchboard_webhooks_v1_GetDeliveryResponse__Output>
  GetDeliveryStats: MethodDefinition<_switchboard_webhooks_v1_GetDeliveryStatsRequest, _switchboard_webhooks_v1_GetDeliveryStatsResponse, _switchboard_webhooks_v1_GetDeliveryStatsRequest__Output, _switchboard_webhooks_v1_GetDeliveryStatsResponse__Output>
  GetDeliveryTarget: MethodDefinition<_switchboard_webhooks_v1_GetDeliveryTargetRequest, _switchboard_webhooks_v1_MatchedSubscription, _switchboard_webhooks_v1_GetDeliveryTargetRequest__Output, _switchboard_webhooks_v1_MatchedSubscription__Output>
  GetRecovery: MethodDefinition<_switchboard_webhooks_v1_GetRecoveryRequest, _switchboard_webhooks_v1_GetRecoveryResponse, _switchboard_webhooks_v1_GetRecoveryRequest__Output, _switchboard_webhooks_v1_GetRecoveryResponse__Output>
  GetSecret: MethodDefinition<_switchboard_webhooks_v1_GetSecretRequest, _switchboard_webhooks_v1_GetSecretResponse, _switchboard_webhooks_v1_GetSecretRequest__Output, _switchboard_webhooks_v1_GetSecretResponse__Output>
  GetSession: MethodDefinition<_switchboard_webhooks_v1_GetSessionRequest, _switchboard_webhooks_v1_GetSessionResponse, _switchboard_webhooks_v1_GetSessionRequest__Output, _switchboard_webhooks_v1_GetSessionResponse__Output>
  GetSubscription: MethodDefinition<_switchboard_webhooks_v1_GetSubscriptionRequest, _switchboard_webhooks_v1_GetSubscriptionResponse, _switchboard_webhooks_v1_GetSubscriptionRequest__Output, _switchboard_webhooks_v1_GetSubscriptionResponse__Output>
  GetUsage: MethodDefinition<_switchboard_webhooks_v1_GetUsageRequest, _switchboard_webhooks_v1_GetUsageResponse, _switchboard_webhooks_v1_GetUsageRequest__Output, _switchboard_webhooks_v1_GetUsageResponse__Output>
  GetUsageTrigger: MethodDefinition<_switchboard_webhooks_v1_GetUsageTriggerRequest, _switchboard_webhooks_v1_GetUsageTriggerResponse, _switchboard_webhooks_v1_GetUsageTriggerRequest__Output, _switchboard_webhooks_v1_GetUsageTriggerResponse__Output>
  ListAlertTriggers: MethodDefinition<_switchboard_webhooks_v1_ListAlertTriggersRequest, _switchboard_webhooks_v1_ListAlertTriggersResponse, _switchboard_webhooks_v1_ListAlertTriggersRequest__Output, _switchboard_webhooks_v1_ListAlertTriggersResponse__Output>
  ListAlerts: MethodDefinition<_switchboard_webhooks_v1_ListAlertsRequest, _switchboard_webhooks_v1_ListAlertsResponse, _switchboard_webhooks_v1_ListAlertsRequest__Output, _switchboard_webhooks_v1_ListAlertsResponse__Output>
  ListAuditEvents: MethodDefinition<_switchboard_applications_v1_ListAuditEventsRequest, _switchboard_applications_v1_ListAuditEventsResponse, _switchboard_applications_v1_ListAuditEventsRequest__Output, _switchboard_applications_v1_ListAuditEventsResponse__Output>
  ListDeliveries: MethodDefinition<_switchboard_webhooks_v1_ListDeliveriesRequest, _switchboard_webhooks_v1_ListDeliveriesResponse, _switchboard_webhooks_v1_ListDeliveriesRequest__Output, _switchboard_webhooks_v1_ListDeliveriesResponse__Output>
  ListSessions: MethodDefinition<_switchboard_webhooks_v1_ListSessionsRequest, _switchboard_webhooks_v1_ListSessionsResponse, _switchboard_webhooks_v1_ListSessionsRequest__Output, _switchboard_webhooks_v1_ListSessionsResponse__Output>
  ListSubscriptions: MethodDefinition<_switchboard_webhooks_v1_ListSubscriptionsRequest, _switchboard_webhooks_v1_ListSubscriptionsResponse, _switchboard_webhooks_v1_ListSubscriptionsRequest__Output, _switchboard_webhooks_v1_ListSubscriptionsResponse__Output>
  ListUsageTriggers: MethodDefinition<_switchboard_webhooks_v1_ListUsageTriggersRequest, _switchboard_webhooks_v1_ListUsageTriggersResponse, _switchboard_webhooks_v1_ListUsageTriggersRequest__Output, _switchboard_webhooks_v1_ListUsageTriggersResponse__Output>
  MatchSubscriptions: MethodDefinition<_switchboard_webhooks_v1_MatchSubscriptionsRequest, _switchboard_webhooks_v1_MatchSubscriptionsResponse, _switchboard_webhooks_v1_MatchSubscriptionsRequest__Output, _switchboard_webhooks_v1_MatchSubscriptionsResponse__Output>
  RecoverSubscription: MethodDefinition<_switchboard_webhooks_v1_RecoverSubscriptionRequest, _switchboard_webhooks_v1_RecoverSubscriptionResponse, _switchboard_webhooks_v1_RecoverSubscriptionRequest__Output, _switchboard_webhooks_v1_RecoverSubscriptionResponse__Output>
  ResendDelivery: MethodDefinition<_switchboard_webhooks_v1_ResendDeliveryRequest, _switchboard_webhooks_v1_ResendDeliveryResponse, _switchboard_webhooks_v1_ResendDeliveryRequest__Output, _switchboard_webhooks_v1_ResendDeliveryResponse__Output>
  RotateSecret: MethodDefinition<_switchboard_webhooks_v1_RotateSecretRequest, _switchboard_webhooks_v1_RotateSecretResponse, _switchboard_webhooks_v1_RotateSecretRequest__Output, _switchboard_webhooks_v1_RotateSecretResponse__Output>
  TestSubscription: MethodDefinition<_switchboard_webhooks_v1_TestSubscriptionRequest, _switchboard_webhooks_v1_TestSubscriptionResponse, _switchboard_webhooks_v1_TestSubscriptionRequest__Output, _switchboard_webhooks_v1_TestSubscriptionResponse__Output>
  UpdateSubscription: MethodDefinition<_switchboard_webhooks_v1_UpdateSubscriptionRequest, _switchboard_webhooks_v1_UpdateSubscriptionResponse, _switchboard_webhooks_v1_UpdateSubscriptionRequest__Output, _switchboard_webhooks_v1_UpdateSubscriptionResponse__Output>
}
