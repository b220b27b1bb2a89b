import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { CreateSubscriptionRequest as _switchboard_webhooks_v1_CreateSubscriptionRequest, CreateSubscriptionRequest__Output as _switchboard_webhooks_v1_CreateSubscriptionRequest__Output } from './switchboard/webhooks/v1/CreateSubscriptionRequest.ts';
import type { CreateSubscriptionResponse as _switchboard_webhooks_v1_CreateSubscriptionResponse, CreateSubscriptionResponse__Output as _switchboard_webhooks_v1_CreateSubscriptionResponse__Output } from './switchboard/webhooks/v1/CreateSubscriptionResponse.ts';
import type { DeleteSubscriptionRequest as _switchboard_webhooks_v1_DeleteSubscriptionRequest, DeleteSubscriptionRequest__Output as _switchboard_webhooks_v1_DeleteSubscriptionRequest__Output } from './switchboard/webhooks/v1/DeleteSubscriptionRequest.ts';
import type { DeleteSubscriptionResponse as _switchboard_webhooks_v1_DeleteSubscriptionResponse, DeleteSubscriptionResponse__Output as _switchboard_webhooks_v1_DeleteSubscriptionResponse__Output } from './switchboard/webhooks/v1/DeleteSubscriptionResponse.ts';
import type { Delivery as _switchboard_webhooks_v1_Delivery, Delivery__Output as _switchboard_webhooks_v1_Delivery__Output } from './switchboard/webhooks/v1/Delivery.ts';
import type { DeliveryStatsBucket as _switchboard_webhooks_v1_DeliveryStatsBucket, DeliveryStatsBucket__Output as _switchboard_webhooks_v1_DeliveryStatsBucket__Output } from './switchboard/webhooks/v1/DeliveryStatsBucket.ts';
import type { GetDeliveryRequest as _switchboard_webhooks_v1_GetDeliveryRequest, GetDeliveryRequest__Output as _switchboard_webhooks_v1_GetDeliveryRequest__Output } from './switchboard/webhooks/v1/GetDeliveryRequest.ts';
import type { GetDeliveryResponse as _switchboard_webhooks_v1_GetDeliveryResponse, GetDeliveryResponse__Output as _switchboard_webhooks_v1_GetDeliveryResponse__Output } from './switchboard/webhooks/v1/GetDeliveryResponse.ts';
import type { GetDeliveryStatsRequest as _switchboard_webhooks_v1_GetDeliveryStatsRequest, GetDeliveryStatsRequest__Output as _switchboard_webhooks_v1_GetDeliveryStatsRequest__Output } from './switchboard/webhooks/v1/GetDeliveryStatsRequest.ts';
import type { GetDeliveryStatsResponse as _switchboard_webhooks_v1_GetDeliveryStatsResponse, GetDeliveryStatsResponse__Output as _switchboard_webhooks_v1_GetDeliveryStatsResponse__Output } from './switchboard/webhooks/v1/GetDeliveryStatsResponse.ts';
import type { GetDeliveryTargetRequest as _switchboard_webhooks_v1_GetDeliveryTargetRequest, GetDeliveryTargetRequest__Output as _switchboard_webhooks_v1_GetDeliveryTargetRequest__Output } from './switchboard/webhooks/v1/GetDeliveryTargetRequest.ts';
import type { GetRecoveryRequest as _switchboard_webhooks_v1_GetRecoveryRequest, GetRecoveryRequest__Output as _switchboard_webhooks_v1_GetRecoveryRequest__Output } from './switchboard/webhooks/v1/GetRecoveryRequest.ts';
import type { GetRecoveryResponse as _switchboard_webhooks_v1_GetRecoveryResponse, GetRecoveryResponse__Output as _switchboard_webhooks_v1_GetRecoveryResponse__Output } from './switchboard/webhooks/v1/GetRecoveryResponse.ts';
import type { GetSecretRequest as _switchboard_webhooks_v1_GetSecretRequest, GetSecretRequest__Output as _switchboard_webhooks_v1_GetSecretRequest__Output } from './switchboard/webhooks/v1/GetSecretRequest.ts';
import type { GetSecretResponse as _switchboard_webhooks_v1_GetSecretResponse, GetSecretResponse__Output as _switchboard_webhooks_v1_GetSecretResponse__Output } from './switchboard/webhooks/v1/GetSecretResponse.ts';
import type { GetSessionRequest as _switchboard_webhooks_v1_GetSessionRequest, GetSessionRequest__Output as _switchboard_webhooks_v1_GetSessionRequest__Output } from './switchboard/webhooks/v1/GetSessionRequest.ts';
import type { GetSessionResponse as _switchboard_webhooks_v1_GetSessionResponse, GetSessionResponse__Output as _switchboard_webhooks_v1_GetSessionResponse__Output } from './switchboard/webhooks/v1/GetSessionResponse.ts';
import type { GetSubscriptionRequest as _switchboard_webhooks_v1_GetSubscriptionRequest, GetSubscriptionRequest__Output as _switchboard_webhooks_v1_GetSubscriptionRequest__Output } from './switchboard/webhooks/v1/GetSubscriptionRequest.ts';
import type { GetSubscriptionResponse as _switchboard_webhooks_v1_GetSubscriptionResponse, GetSubscriptionResponse__Output as _switchboard_webhooks_v1_GetSubscriptionResponse__Output } from './switchboard/webhooks/v1/GetSubscriptionResponse.ts';
import type { ListDeliveriesRequest as _switchboard_webhooks_v1_ListDeliveriesRequest, ListDeliveriesRequest__Output as _switchboard_webhooks_v1_ListDeliveriesRequest__Output } from './switchboard/webhooks/v1/ListDeliveriesRequest.ts';
import type { ListDeliveriesResponse as _switchboard_webhooks_v1_ListDeliveriesResponse, ListDeliveriesResponse__Output as _switchboard_webhooks_v1_ListDeliveriesResponse__Output } from './switchboard/webhooks/v1/ListDeliveriesResponse.ts';
import type { ListSessionsRequest as _switchboard_webhooks_v1_ListSessionsRequest, ListSessionsRequest__Output as _switchboard_webhooks_v1_ListSessionsRequest__Output } from './switchboard/webhooks/v1/ListSessionsRequest.ts';
import type { ListSessionsResponse as _switchboard_webhooks_v1_ListSessionsResponse, ListSessionsResponse__Output as _switchboard_webhooks_v1_ListSessionsResponse__Output } from './switchboard/webhooks/v1/ListSessionsResponse.ts';
import type { ListSubscriptionsRequest as _switchboard_webhooks_v1_ListSubscriptionsRequest, ListSubscriptionsRequest__Output as _switchboard_webhooks_v1_ListSubscriptionsRequest__Output } from './switchboard/webhooks/v1/ListSubscriptionsRequest.ts';
import type { ListSubscriptionsResponse as _switchboard_webhooks_v1_ListSubscriptionsResponse, ListSubscriptionsResponse__Output as _switchboard_webhooks_v1_ListSubscriptionsResponse__Output } from './switchboard/webhooks/v1/ListSubscriptionsResponse.ts';
import type { MatchSubscriptionsRequest as _switchboard_webhooks_v1_MatchSubscriptionsRequest, MatchSubscriptionsRequest__Output as _switchboard_webhooks_v1_MatchSubscriptionsRequest__Output } from './switchboard/webhooks/v1/MatchSubscriptionsRequest.ts';
import type { MatchSubscriptionsResponse as _switchboard_webhooks_v1_MatchSubscriptionsResponse, MatchSubscriptionsResponse__Output as _switchboard_webhooks_v1_MatchSubscriptionsResponse__Output } from './switchboard/webhooks/v1/MatchSubscriptionsResponse.ts';
import type { MatchedSubscription as _switchboard_webhooks_v1_MatchedSubscription, MatchedSubscription__Output as _switchboard_webhooks_v1_MatchedSubscription__Output } from './switchboard/webhooks/v1/MatchedSubscription.ts';
import type { RecoverSubscriptionRequest as _switchboard_webhooks_v1_RecoverSubscriptionRequest, RecoverSubscriptionRequest__Output as _switchboard_webhooks_v1_RecoverSubscriptionRequest__Output } from './switchboard/webhooks/v1/RecoverSubscriptionRequest.ts';
import type { RecoverSubscriptionResponse as _switchboard_webhooks_v1_RecoverSubscriptionResponse, RecoverSubscriptionResponse__Output as _switchboard_webhooks_v1_RecoverSubscriptionResponse__Output } from './switchboard/webhooks/v1/RecoverSubscriptionResponse.ts';
import type { Recovery as _switchboard_webhooks_v1_Recovery, Recovery__Output as _switchboard_webhooks_v1_Recovery__Output } from './switchboard/webhooks/v1/Recovery.ts';
import type { ResendDeliveryRequest as _switchboard_webhooks_v1_ResendDeliveryRequest, ResendDeliveryRequest__Output as _switchboard_webhooks_v1_ResendDeliveryRequest__Output } from './switchboard/webhooks/v1/ResendDeliveryRequest.ts';
import type { ResendDeliveryResponse as _switchboard_webhooks_v1_ResendDeliveryResponse, ResendDeliveryResponse__Output as _switchboard_webhooks_v1_ResendDeliveryResponse__Output } from './switchboard/webhooks/v1/ResendDeliveryResponse.ts';
import type { RotateSecretRequest as _switchboard_webhooks_v1_RotateSecretRequest, RotateSecretRequest__Output as _switchboard_webhooks_v1_RotateSecretRequest__Output } from './switchboard/webhooks/v1/RotateSecretRequest.ts';
import type { RotateSecretResponse as _switchboard_webhooks_v1_RotateSecretResponse, RotateSecretResponse__Output as _switchboard_webhooks_v1_RotateSecretResponse__Output } from './switchboard/webhooks/v1/RotateSecretResponse.ts';
import type { SessionAttempt as _switchboard_webhooks_v1_SessionAttempt, SessionAttempt__Output as _switchboard_webhooks_v1_SessionAttempt__Output } from './switchboard/webhooks/v1/SessionAttempt.ts';
import type { SessionCounts as _switchboard_webhooks_v1_SessionCounts, SessionCounts__Output as _switchboard_webhooks_v1_SessionCounts__Output } from './switchboard/webhooks/v1/SessionCounts.ts';
import type { SessionInstructions as _switchboard_webhooks_v1_SessionInstructions, SessionInstructions__Output as _switchboard_webhooks_v1_SessionInstructions__Output } from './switchboard/webhooks/v1/SessionInstructions.ts';
import type { SessionRecord as _switchboard_webhooks_v1_SessionRecord, SessionRecord__Output as _switchboard_webhooks_v1_SessionRecord__Output } from './switchboard/webhooks/v1/SessionRecord.ts';
import type { SessionSignal as _switchboard_webhooks_v1_SessionSignal, SessionSignal__Output as _switchboard_webhooks_v1_SessionSignal__Output } from './switchboard/webhooks/v1/SessionSignal.ts';
import type { Subscription as _switchboard_webhooks_v1_Subscription, Subscription__Output as _switchboard_webhooks_v1_Subscription__Output } from './switchboard/webhooks/v1/Subscription.ts';
import type { TestSubscriptionRequest as _switchboard_webhooks_v1_TestSubscriptionRequest, TestSubscriptionRequest__Output as _switchboard_webhooks_v1_TestSubscriptionRequest__Output } from './switchboard/webhooks/v1/TestSubscriptionRequest.ts';
import type { TestSubscriptionResponse as _switchboard_webhooks_v1_TestSubscriptionResponse, TestSubscriptionResponse__Output as _switchboard_webhooks_v1_TestSubscriptionResponse__Output } from './switchboard/webhooks/v1/TestSubscriptionResponse.ts';
import type { UpdateSubscriptionRequest as _switchboard_webhooks_v1_UpdateSubscriptionRequest, UpdateSubscriptionRequest__Output as _switchboard_webhooks_v1_UpdateSubscriptionRequest__Output } from './switchboard/webhooks/v1/UpdateSubscriptionRequest.ts';
import type { UpdateSubscriptionResponse as _switchboard_webhooks_v1_UpdateSubscriptionResponse, UpdateSubscriptionResponse__Output as _switchboard_webhooks_v1_UpdateSubscriptionResponse__Output } from './switchboard/webhooks/v1/UpdateSubscriptionResponse.ts';
import type { WebhooksServiceClient as _switchboard_webhooks_v1_WebhooksServiceClient, WebhooksServiceDefinition as _switchboard_webhooks_v1_WebhooksServiceDefinition } from './switchboard/webhooks/v1/WebhooksService.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  switchboard: {
    webhooks: {
      v1: {
        CreateSubscriptionRequest: MessageTypeDefinition<_switchboard_webhooks_v1_CreateSubscriptionRequest, _switchboard_webhooks_v1_CreateSubscriptionRequest__Output>
        CreateSubscriptionResponse: MessageTypeDefinition<_switchboard_webhooks_v1_CreateSubscriptionResponse, _switchboard_webhooks_v1_CreateSubscriptionResponse__Output>
        DeleteSubscriptionRequest: MessageTypeDefinition<_switchboard_webhooks_v1_DeleteSubscriptionRequest, _switchboard_webhooks_v1_DeleteSubscriptionRequest__Output>
        DeleteSubscriptionResponse: MessageTypeDefinition<_switchboard_webhooks_v1_DeleteSubscriptionResponse, _switchboard_webhooks_v1_DeleteSubscriptionResponse__Output>
        Delivery: MessageTypeDefinition<_switchboard_webhooks_v1_Delivery, _switchboard_webhooks_v1_Delivery__Output>
        DeliveryKind: EnumTypeDefinition
        DeliveryOutcome: EnumTypeDefinition
        DeliveryStatsBucket: MessageTypeDefinition<_switchboard_webhooks_v1_DeliveryStatsBucket, _switchboard_webhooks_v1_DeliveryStatsBucket__Output>
        GetDeliveryRequest: MessageTypeDefinition<_switchboard_webhooks_v1_GetDeliveryRequest, _switchboard_webhooks_v1_GetDeliveryRequest__Output>
        GetDeliveryResponse: MessageTypeDefinition<_switchboard_webhooks_v1_GetDeliveryResponse, _switchboard_webhooks_v1_GetDeliveryResponse__Output>
        GetDeliveryStatsRequest: MessageTypeDefinition<_switchboard_webhooks_v1_GetDeliveryStatsRequest, _switchboard_webhooks_v1_GetDeliveryStatsRequest__Output>
        GetDeliveryStatsResponse: MessageTypeDefinition<_switchboard_webhooks_v1_GetDeliveryStatsResponse, _switchboard_webhooks_v1_GetDeliveryStatsResponse__Output>
        GetDeliveryTargetRequest: MessageTypeDefinition<_switchboard_webhooks_v1_GetDeliveryTargetRequest, _switchboard_webhooks_v1_GetDeliveryTargetRequest__Output>
        GetRecoveryRequest: MessageTypeDefinition<_switchboard_webhooks_v1_GetRecoveryRequest, _switchboard_webhooks_v1_GetRecoveryRequest__Output>
        GetRecoveryResponse: MessageTypeDefinition<_switchboard_webhooks_v1_GetRecoveryResponse, _switchboard_webhooks_v1_GetRecoveryResponse__Output>
        GetSecretRequest: MessageTypeDefinition<_switchboard_webhooks_v1_GetSecretRequest, _switchboard_webhooks_v1_GetSecretRequest__Output>
        GetSecretResponse: MessageTypeDefinition<_switchboard_webhooks_v1_GetSecretResponse, _switchboard_webhooks_v1_GetSecretResponse__Output>
        GetSessionRequest: MessageTypeDefinition<_switchboard_webhooks_v1_GetSessionRequest, _switchboard_webhooks_v1_GetSessionRequest__Output>
        GetSessionResponse: MessageTypeDefinition<_switchboard_webhooks_v1_GetSessionResponse, _switchboard_webhooks_v1_GetSessionResponse__Output>
        GetSubscriptionRequest: MessageTypeDefinition<_switchboard_webhooks_v1_GetSubscriptionRequest, _switchboard_webhooks_v1_GetSubscriptionRequest__Output>
        GetSubscriptionResponse: MessageTypeDefinition<_switchboard_webhooks_v1_GetSubscriptionResponse, _switchboard_webhooks_v1_GetSubscriptionResponse__Output>
        ListDeliveriesRequest: MessageTypeDefinition<_switchboard_webhooks_v1_ListDeliveriesRequest, _switchboard_webhooks_v1_ListDeliveriesRequest__Output>
        ListDeliveriesResponse: MessageTypeDefinition<_switchboard_webhooks_v1_ListDeliveriesResponse, _switchboard_webhooks_v1_ListDeliveriesResponse__Output>
        ListSessionsRequest: MessageTypeDefinition<_switchboard_webhooks_v1_ListSessionsRequest, _switchboard_webhooks_v1_ListSessionsRequest__Output>
        ListSessionsResponse: MessageTypeDefinition<_switchboard_webhooks_v1_ListSessionsResponse, _switchboard_webhooks_v1_ListSessionsResponse__Output>
        ListSubscriptionsRequest: MessageTypeDefinition<_switchboard_webhooks_v1_ListSubscriptionsRequest, _switchboard_webhooks_v1_ListSubscriptionsRequest__Output>
        ListSubscriptionsResponse: MessageTypeDefinition<_switchboard_webhooks_v1_ListSubscriptionsResponse, _switchboard_webhooks_v1_ListSubscriptionsResponse__Output>
        MatchSubscriptionsRequest: MessageTypeDefinition<_switchboard_webhooks_v1_MatchSubscriptionsRequest, _switchboard_webhooks_v1_MatchSubscriptionsRequest__Output>
        MatchSubscriptionsResponse: MessageTypeDefinition<_switchboard_webhooks_v1_MatchSubscriptionsResponse, _switchboard_webhooks_v1_MatchSubscriptionsResponse__Output>
        MatchedSubscription: MessageTypeDefinition<_switchboard_webhooks_v1_MatchedSubscription, _switchboard_webhooks_v1_MatchedSubscription__Output>
        RecoverSubscriptionRequest: MessageTypeDefinition<_switchboard_webhooks_v1_RecoverSubscriptionRequest, _switchboard_webhooks_v1_RecoverSubscriptionRequest__Output>
        RecoverSubscriptionResponse: MessageTypeDefinition<_switchboard_webhooks_v1_RecoverSubscriptionResponse, _switchboard_webhooks_v1_RecoverSubscriptionResponse__Output>
        Recovery: MessageTypeDefinition<_switchboard_webhooks_v1_Recovery, _switchboard_webhooks_v1_Recovery__Output>
        ResendDeliveryRequest: MessageTypeDefinition<_switchboard_webhooks_v1_ResendDeliveryRequest, _switchboard_webhooks_v1_ResendDeliveryRequest__Output>
        ResendDeliveryResponse: MessageTypeDefinition<_switchboard_webhooks_v1_ResendDeliveryResponse, _switchboard_webhooks_v1_ResendDeliveryResponse__Output>
        RotateSecretRequest: MessageTypeDefinition<_switchboard_webhooks_v1_RotateSecretRequest, _switchboard_webhooks_v1_RotateSecretRequest__Output>
        RotateSecretResponse: MessageTypeDefinition<_switchboard_webhooks_v1_RotateSecretResponse, _switchboard_webhooks_v1_RotateSecretResponse__Output>
        SessionAttempt: MessageTypeDefinition<_switchboard_webhooks_v1_SessionAttempt, _switchboard_webhooks_v1_SessionAttempt__Output>
        SessionCounts: MessageTypeDefinition<_switchboard_webhooks_v1_SessionCounts, _switchboard_webhooks_v1_SessionCounts__Output>
        SessionInstructions: MessageTypeDefinition<_switchboard_webhooks_v1_SessionInstructions, _switchboard_webhooks_v1_SessionInstructions__Output>
        SessionRecord: MessageTypeDefinition<_switchboard_webhooks_v1_SessionRecord, _switchboard_webhooks_v1_SessionRecord__Output>
        SessionSignal: MessageTypeDefinition<_switchboard_webhooks_v1_SessionSignal, _switchboard_webhooks_v1_SessionSignal__Output>
        Subscription: MessageTypeDefinition<_switchboard_webhooks_v1_Subscription, _switchboard_webhooks_v1_Subscription__Output>
        TestSubscriptionRequest: MessageTypeDefinition<_switchboard_webhooks_v1_TestSubscriptionRequest, _switchboard_webhooks_v1_TestSubscriptionRequest__Output>
        TestSubscriptionResponse: MessageTypeDefinition<_switchboard_webhooks_v1_TestSubscriptionResponse, _switchboard_webhooks_v1_TestSubscriptionResponse__Output>
        UpdateSubscriptionRequest: MessageTypeDefinition<_switchboard_webhooks_v1_UpdateSubscriptionRequest, _switchboard_webhooks_v1_UpdateSubscriptionRequest__Output>
        UpdateSubscriptionResponse: MessageTypeDefinition<_switchboard_webhooks_v1_UpdateSubscriptionResponse, _switchboard_webhooks_v1_UpdateSubscriptionResponse__Output>
        WebhooksService: SubtypeConstructor<typeof grpc.Client, _switchboard_webhooks_v1_WebhooksServiceClient> & { service: _switchboard_webhooks_v1_WebhooksServiceDefinition }
      }
    }
  }
}

