import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { Account as _switchboard_applications_v1_Account, Account__Output as _switchboard_applications_v1_Account__Output } from './switchboard/applications/v1/Account.ts';
import type { AccountsServiceClient as _switchboard_applications_v1_AccountsServiceClient, AccountsServiceDefinition as _switchboard_applications_v1_AccountsServiceDefinition } from './switchboard/applications/v1/AccountsService.ts';
import type { Address as _switchboard_applications_v1_Address, Address__Output as _switchboard_applications_v1_Address__Output } from './switchboard/applications/v1/Address.ts';
import type { AddressesServiceClient as _switchboard_applications_v1_AddressesServiceClient, AddressesServiceDefinition as _switchboard_applications_v1_AddressesServiceDefinition } from './switchboard/applications/v1/AddressesService.ts';
import type { ApiKey as _switchboard_applications_v1_ApiKey, ApiKey__Output as _switchboard_applications_v1_ApiKey__Output } from './switchboard/applications/v1/ApiKey.ts';
import type { ApiKeysServiceClient as _switchboard_applications_v1_ApiKeysServiceClient, ApiKeysServiceDefinition as _switchboard_applications_v1_ApiKeysServiceDefinition } from './switchboard/applications/v1/ApiKeysService.ts';
import type { Application as _switchboard_applications_v1_Application, Application__Output as _switchboard_applications_v1_Application__Output } from './switchboard/applications/v1/Application.ts';
import type { ApplicationsServiceClient as _switchboard_applications_v1_ApplicationsServiceClient, ApplicationsServiceDefinition as _switchboard_applications_v1_ApplicationsServiceDefinition } from './switchboard/applications/v1/ApplicationsService.ts';
import type { AuditEvent as _switchboard_applications_v1_AuditEvent, AuditEvent__Output as _switchboard_applications_v1_AuditEvent__Output } from './switchboard/applications/v1/AuditEvent.ts';
import type { AuditServiceClient as _switchboard_applications_v1_AuditServiceClient, AuditServiceDefinition as _switchboard_applications_v1_AuditServiceDefinition } from './switchboard/applications/v1/AuditService.ts';
import type { ChangePasswordRequest as _switchboard_applications_v1_ChangePasswordRequest, ChangePasswordRequest__Output as _switchboard_applications_v1_ChangePasswordRequest__Output } from './switchboard/applications/v1/ChangePasswordRequest.ts';
import type { ChangePasswordResponse as _switchboard_applications_v1_ChangePasswordResponse, ChangePasswordResponse__Output as _switchboard_applications_v1_ChangePasswordResponse__Output } from './switchboard/applications/v1/ChangePasswordResponse.ts';
import type { ClaimAddressRequest as _switchboard_applications_v1_ClaimAddressRequest, ClaimAddressRequest__Output as _switchboard_applications_v1_ClaimAddressRequest__Output } from './switchboard/applications/v1/ClaimAddressRequest.ts';
import type { ClaimAddressResponse as _switchboard_applications_v1_ClaimAddressResponse, ClaimAddressResponse__Output as _switchboard_applications_v1_ClaimAddressResponse__Output } from './switchboard/applications/v1/ClaimAddressResponse.ts';
import type { ConsoleSessionsServiceClient as _switchboard_applications_v1_ConsoleSessionsServiceClient, ConsoleSessionsServiceDefinition as _switchboard_applications_v1_ConsoleSessionsServiceDefinition } from './switchboard/applications/v1/ConsoleSessionsService.ts';
import type { CreateApiKeyRequest as _switchboard_applications_v1_CreateApiKeyRequest, CreateApiKeyRequest__Output as _switchboard_applications_v1_CreateApiKeyRequest__Output } from './switchboard/applications/v1/CreateApiKeyRequest.ts';
import type { CreateApiKeyResponse as _switchboard_applications_v1_CreateApiKeyResponse, CreateApiKeyResponse__Output as _switchboard_applications_v1_CreateApiKeyResponse__Output } from './switchboard/applications/v1/CreateApiKeyResponse.ts';
import type { CreateApplicationRequest as _switchboard_applications_v1_CreateApplicationRequest, CreateApplicationRequest__Output as _switchboard_applications_v1_CreateApplicationRequest__Output } from './switchboard/applications/v1/CreateApplicationRequest.ts';
import type { CreateApplicationResponse as _switchboard_applications_v1_CreateApplicationResponse, CreateApplicationResponse__Output as _switchboard_applications_v1_CreateApplicationResponse__Output } from './switchboard/applications/v1/CreateApplicationResponse.ts';
import type { CreateConsoleSessionRequest as _switchboard_applications_v1_CreateConsoleSessionRequest, CreateConsoleSessionRequest__Output as _switchboard_applications_v1_CreateConsoleSessionRequest__Output } from './switchboard/applications/v1/CreateConsoleSessionRequest.ts';
import type { CreateConsoleSessionResponse as _switchboard_applications_v1_CreateConsoleSessionResponse, CreateConsoleSessionResponse__Output as _switchboard_applications_v1_CreateConsoleSessionResponse__Output } from './switchboard/applications/v1/CreateConsoleSessionResponse.ts';
import type { DeleteApplicationRequest as _switchboard_applications_v1_DeleteApplicationRequest, DeleteApplicationRequest__Output as _switchboard_applications_v1_DeleteApplicationRequest__Output } from './switchboard/applications/v1/DeleteApplicationRequest.ts';
import type { DeleteApplicationResponse as _switchboard_applications_v1_DeleteApplicationResponse, DeleteApplicationResponse__Output as _switchboard_applications_v1_DeleteApplicationResponse__Output } from './switchboard/applications/v1/DeleteApplicationResponse.ts';
import type { EndConsoleSessionRequest as _switchboard_applications_v1_EndConsoleSessionRequest, EndConsoleSessionRequest__Output as _switchboard_applications_v1_EndConsoleSessionRequest__Output } from './switchboard/applications/v1/EndConsoleSessionRequest.ts';
import type { EndConsoleSessionResponse as _switchboard_applications_v1_EndConsoleSessionResponse, EndConsoleSessionResponse__Output as _switchboard_applications_v1_EndConsoleSessionResponse__Output } from './switchboard/applications/v1/EndConsoleSessionResponse.ts';
import type { Environment as _switchboard_applications_v1_Environment, Environment__Output as _switchboard_applications_v1_Environment__Output } from './switchboard/applications/v1/Environment.ts';
import type { Exchange as _switchboard_applications_v1_Exchange, Exchange__Output as _switchboard_applications_v1_Exchange__Output } from './switchboard/applications/v1/Exchange.ts';
import type { GetAccountRequest as _switchboard_applications_v1_GetAccountRequest, GetAccountRequest__Output as _switchboard_applications_v1_GetAccountRequest__Output } from './switchboard/applications/v1/GetAccountRequest.ts';
import type { GetAccountResponse as _switchboard_applications_v1_GetAccountResponse, GetAccountResponse__Output as _switchboard_applications_v1_GetAccountResponse__Output } from './switchboard/applications/v1/GetAccountResponse.ts';
import type { GetAddressRequest as _switchboard_applications_v1_GetAddressRequest, GetAddressRequest__Output as _switchboard_applications_v1_GetAddressRequest__Output } from './switchboard/applications/v1/GetAddressRequest.ts';
import type { GetAddressResponse as _switchboard_applications_v1_GetAddressResponse, GetAddressResponse__Output as _switchboard_applications_v1_GetAddressResponse__Output } from './switchboard/applications/v1/GetAddressResponse.ts';
import type { GetApiKeyRequest as _switchboard_applications_v1_GetApiKeyRequest, GetApiKeyRequest__Output as _switchboard_applications_v1_GetApiKeyRequest__Output } from './switchboard/applications/v1/GetApiKeyRequest.ts';
import type { GetApiKeyResponse as _switchboard_applications_v1_GetApiKeyResponse, GetApiKeyResponse__Output as _switchboard_applications_v1_GetApiKeyResponse__Output } from './switchboard/applications/v1/GetApiKeyResponse.ts';
import type { GetApplicationRequest as _switchboard_applications_v1_GetApplicationRequest, GetApplicationRequest__Output as _switchboard_applications_v1_GetApplicationRequest__Output } from './switchboard/applications/v1/GetApplicationRequest.ts';
import type { GetApplicationResponse as _switchboard_applications_v1_GetApplicationResponse, GetApplicationResponse__Output as _switchboard_applications_v1_GetApplicationResponse__Output } from './switchboard/applications/v1/GetApplicationResponse.ts';
import type { GetApplicationSecretRequest as _switchboard_applications_v1_GetApplicationSecretRequest, GetApplicationSecretRequest__Output as _switchboard_applications_v1_GetApplicationSecretRequest__Output } from './switchboard/applications/v1/GetApplicationSecretRequest.ts';
import type { GetApplicationSecretResponse as _switchboard_applications_v1_GetApplicationSecretResponse, GetApplicationSecretResponse__Output as _switchboard_applications_v1_GetApplicationSecretResponse__Output } from './switchboard/applications/v1/GetApplicationSecretResponse.ts';
import type { GetEnvironmentRequest as _switchboard_applications_v1_GetEnvironmentRequest, GetEnvironmentRequest__Output as _switchboard_applications_v1_GetEnvironmentRequest__Output } from './switchboard/applications/v1/GetEnvironmentRequest.ts';
import type { GetEnvironmentResponse as _switchboard_applications_v1_GetEnvironmentResponse, GetEnvironmentResponse__Output as _switchboard_applications_v1_GetEnvironmentResponse__Output } from './switchboard/applications/v1/GetEnvironmentResponse.ts';
import type { LaunchSessionRequest as _switchboard_applications_v1_LaunchSessionRequest, LaunchSessionRequest__Output as _switchboard_applications_v1_LaunchSessionRequest__Output } from './switchboard/applications/v1/LaunchSessionRequest.ts';
import type { LaunchSessionResponse as _switchboard_applications_v1_LaunchSessionResponse, LaunchSessionResponse__Output as _switchboard_applications_v1_LaunchSessionResponse__Output } from './switchboard/applications/v1/LaunchSessionResponse.ts';
import type { ListAddressesRequest as _switchboard_applications_v1_ListAddressesRequest, ListAddressesRequest__Output as _switchboard_applications_v1_ListAddressesRequest__Output } from './switchboard/applications/v1/ListAddressesRequest.ts';
import type { ListAddressesResponse as _switchboard_applications_v1_ListAddressesResponse, ListAddressesResponse__Output as _switchboard_applications_v1_ListAddressesResponse__Output } from './switchboard/applications/v1/ListAddressesResponse.ts';
import type { ListApiKeysRequest as _switchboard_applications_v1_ListApiKeysRequest, ListApiKeysRequest__Output as _switchboard_applications_v1_ListApiKeysRequest__Output } from './switchboard/applications/v1/ListApiKeysRequest.ts';
import type { ListApiKeysResponse as _switchboard_applications_v1_ListApiKeysResponse, ListApiKeysResponse__Output as _switchboard_applications_v1_ListApiKeysResponse__Output } from './switchboard/applications/v1/ListApiKeysResponse.ts';
import type { ListApplicationsRequest as _switchboard_applications_v1_ListApplicationsRequest, ListApplicationsRequest__Output as _switchboard_applications_v1_ListApplicationsRequest__Output } from './switchboard/applications/v1/ListApplicationsRequest.ts';
import type { ListApplicationsResponse as _switchboard_applications_v1_ListApplicationsResponse, ListApplicationsResponse__Output as _switchboard_applications_v1_ListApplicationsResponse__Output } from './switchboard/applications/v1/ListApplicationsResponse.ts';
import type { ListAuditEventsRequest as _switchboard_applications_v1_ListAuditEventsRequest, ListAuditEventsRequest__Output as _switchboard_applications_v1_ListAuditEventsRequest__Output } from './switchboard/applications/v1/ListAuditEventsRequest.ts';
import type { ListAuditEventsResponse as _switchboard_applications_v1_ListAuditEventsResponse, ListAuditEventsResponse__Output as _switchboard_applications_v1_ListAuditEventsResponse__Output } from './switchboard/applications/v1/ListAuditEventsResponse.ts';
import type { ListAvailableNumbersRequest as _switchboard_applications_v1_ListAvailableNumbersRequest, ListAvailableNumbersRequest__Output as _switchboard_applications_v1_ListAvailableNumbersRequest__Output } from './switchboard/applications/v1/ListAvailableNumbersRequest.ts';
import type { ListAvailableNumbersResponse as _switchboard_applications_v1_ListAvailableNumbersResponse, ListAvailableNumbersResponse__Output as _switchboard_applications_v1_ListAvailableNumbersResponse__Output } from './switchboard/applications/v1/ListAvailableNumbersResponse.ts';
import type { ListExchangesRequest as _switchboard_applications_v1_ListExchangesRequest, ListExchangesRequest__Output as _switchboard_applications_v1_ListExchangesRequest__Output } from './switchboard/applications/v1/ListExchangesRequest.ts';
import type { ListExchangesResponse as _switchboard_applications_v1_ListExchangesResponse, ListExchangesResponse__Output as _switchboard_applications_v1_ListExchangesResponse__Output } from './switchboard/applications/v1/ListExchangesResponse.ts';
import type { LookupApplicationRequest as _switchboard_applications_v1_LookupApplicationRequest, LookupApplicationRequest__Output as _switchboard_applications_v1_LookupApplicationRequest__Output } from './switchboard/applications/v1/LookupApplicationRequest.ts';
import type { LookupApplicationResponse as _switchboard_applications_v1_LookupApplicationResponse, LookupApplicationResponse__Output as _switchboard_applications_v1_LookupApplicationResponse__Output } from './switchboard/applications/v1/LookupApplicationResponse.ts';
import type { MoveAddressRequest as _switchboard_applications_v1_MoveAddressRequest, MoveAddressRequest__Output as _switchboard_applications_v1_MoveAddressRequest__Output } from './switchboard/applications/v1/MoveAddressRequest.ts';
import type { MoveAddressResponse as _switchboard_applications_v1_MoveAddressResponse, MoveAddressResponse__Output as _switchboard_applications_v1_MoveAddressResponse__Output } from './switchboard/applications/v1/MoveAddressResponse.ts';
import type { RecordAuditEventRequest as _switchboard_applications_v1_RecordAuditEventRequest, RecordAuditEventRequest__Output as _switchboard_applications_v1_RecordAuditEventRequest__Output } from './switchboard/applications/v1/RecordAuditEventRequest.ts';
import type { RecordAuditEventResponse as _switchboard_applications_v1_RecordAuditEventResponse, RecordAuditEventResponse__Output as _switchboard_applications_v1_RecordAuditEventResponse__Output } from './switchboard/applications/v1/RecordAuditEventResponse.ts';
import type { ReleaseAddressRequest as _switchboard_applications_v1_ReleaseAddressRequest, ReleaseAddressRequest__Output as _switchboard_applications_v1_ReleaseAddressRequest__Output } from './switchboard/applications/v1/ReleaseAddressRequest.ts';
import type { ReleaseAddressResponse as _switchboard_applications_v1_ReleaseAddressResponse, ReleaseAddressResponse__Output as _switchboard_applications_v1_ReleaseAddressResponse__Output } from './switchboard/applications/v1/ReleaseAddressResponse.ts';
import type { ResolveAddressRequest as _switchboard_applications_v1_ResolveAddressRequest, ResolveAddressRequest__Output as _switchboard_applications_v1_ResolveAddressRequest__Output } from './switchboard/applications/v1/ResolveAddressRequest.ts';
import type { ResolveAddressResponse as _switchboard_applications_v1_ResolveAddressResponse, ResolveAddressResponse__Output as _switchboard_applications_v1_ResolveAddressResponse__Output } from './switchboard/applications/v1/ResolveAddressResponse.ts';
import type { RevokeApiKeyRequest as _switchboard_applications_v1_RevokeApiKeyRequest, RevokeApiKeyRequest__Output as _switchboard_applications_v1_RevokeApiKeyRequest__Output } from './switchboard/applications/v1/RevokeApiKeyRequest.ts';
import type { RevokeApiKeyResponse as _switchboard_applications_v1_RevokeApiKeyResponse, RevokeApiKeyResponse__Output as _switchboard_applications_v1_RevokeApiKeyResponse__Output } from './switchboard/applications/v1/RevokeApiKeyResponse.ts';
import type { RotateApplicationSecretRequest as _switchboard_applications_v1_RotateApplicationSecretRequest, RotateApplicationSecretRequest__Output as _switchboard_applications_v1_RotateApplicationSecretRequest__Output } from './switchboard/applications/v1/RotateApplicationSecretRequest.ts';
import type { RotateApplicationSecretResponse as _switchboard_applications_v1_RotateApplicationSecretResponse, RotateApplicationSecretResponse__Output as _switchboard_applications_v1_RotateApplicationSecretResponse__Output } from './switchboard/applications/v1/RotateApplicationSecretResponse.ts';
import type { SessionsServiceClient as _switchboard_applications_v1_SessionsServiceClient, SessionsServiceDefinition as _switchboard_applications_v1_SessionsServiceDefinition } from './switchboard/applications/v1/SessionsService.ts';
import type { SignalSessionRequest as _switchboard_applications_v1_SignalSessionRequest, SignalSessionRequest__Output as _switchboard_applications_v1_SignalSessionRequest__Output } from './switchboard/applications/v1/SignalSessionRequest.ts';
import type { SignalSessionResponse as _switchboard_applications_v1_SignalSessionResponse, SignalSessionResponse__Output as _switchboard_applications_v1_SignalSessionResponse__Output } from './switchboard/applications/v1/SignalSessionResponse.ts';
import type { UpdateApplicationRequest as _switchboard_applications_v1_UpdateApplicationRequest, UpdateApplicationRequest__Output as _switchboard_applications_v1_UpdateApplicationRequest__Output } from './switchboard/applications/v1/UpdateApplicationRequest.ts';
import type { UpdateApplicationResponse as _switchboard_applications_v1_UpdateApplicationResponse, UpdateApplicationResponse__Output as _switchboard_applications_v1_UpdateApplicationResponse__Output } from './switchboard/applications/v1/UpdateApplicationResponse.ts';
import type { VerifyApiKeyRequest as _switchboard_applications_v1_VerifyApiKeyRequest, VerifyApiKeyRequest__Output as _switchboard_applications_v1_VerifyApiKeyRequest__Output } from './switchboard/applications/v1/VerifyApiKeyRequest.ts';
import type { VerifyApiKeyResponse as _switchboard_applications_v1_VerifyApiKeyResponse, VerifyApiKeyResponse__Output as _switchboard_applications_v1_VerifyApiKeyResponse__Output } from './switchboard/applications/v1/VerifyApiKeyResponse.ts';
import type { VerifyConsoleSessionRequest as _switchboard_applications_v1_VerifyConsoleSessionRequest, VerifyConsoleSessionRequest__Output as _switchboard_applications_v1_VerifyConsoleSessionRequest__Output } from './switchboard/applications/v1/VerifyConsoleSessionRequest.ts';
import type { VerifyConsoleSessionResponse as _switchboard_applications_v1_VerifyConsoleSessionResponse, VerifyConsoleSessionResponse__Output as _switchboard_applications_v1_VerifyConsoleSessionResponse__Output } from './switchboard/applications/v1/VerifyConsoleSessionResponse.ts';
import type { VerifyCredentialsRequest as _switchboard_applications_v1_VerifyCredentialsRequest, VerifyCredentialsRequest__Output as _switchboard_applications_v1_VerifyCredentialsRequest__Output } from './switchboard/applications/v1/VerifyCredentialsRequest.ts';
import type { VerifyCredentialsResponse as _switchboard_applications_v1_VerifyCredentialsResponse, VerifyCredentialsResponse__Output as _switchboard_applications_v1_VerifyCredentialsResponse__Output } from './switchboard/applications/v1/VerifyCredentialsResponse.ts';
import type { Alert as _switchboard_webhooks_v1_Alert, Alert__Output as _switchboard_webhooks_v1_Alert__Output } from './switchboard/webhooks/v1/Alert.ts';
import type { AlertTrigger as _switchboard_webhooks_v1_AlertTrigger, AlertTrigger__Output as _switchboard_webhooks_v1_AlertTrigger__Output } from './switchboard/webhooks/v1/AlertTrigger.ts';
import type { CreateAlertTriggerRequest as _switchboard_webhooks_v1_CreateAlertTriggerRequest, CreateAlertTriggerRequest__Output as _switchboard_webhooks_v1_CreateAlertTriggerRequest__Output } from './switchboard/webhooks/v1/CreateAlertTriggerRequest.ts';
import type { CreateAlertTriggerResponse as _switchboard_webhooks_v1_CreateAlertTriggerResponse, CreateAlertTriggerResponse__Output as _switchboard_webhooks_v1_CreateAlertTriggerResponse__Output } from './switchboard/webhooks/v1/CreateAlertTriggerResponse.ts';
import type { CreateSubscriptionRequest as _switchboard_webhooks_v1_CreateSubscriptionRequest, CreateSubscriptionRequest__Output as _switchboard_webhooks_v1_CreateSubscriptionRequest__Output } from './switchboard/webhooks/v1/CreateSubscriptionRequest.ts';
import type { CreateSubscriptionResponse as _switchboard_webhooks_v1_CreateSubscriptionResponse, CreateSubscriptionResponse__Output as _switchboard_webhooks_v1_CreateSubscriptionResponse__Output } from './switchboard/webhooks/v1/CreateSubscriptionResponse.ts';
import type { CreateUsageTriggerRequest as _switchboard_webhooks_v1_CreateUsageTriggerRequest, CreateUsageTriggerRequest__Output as _switchboard_webhooks_v1_CreateUsageTriggerRequest__Output } from './switchboard/webhooks/v1/CreateUsageTriggerRequest.ts';
import type { CreateUsageTriggerResponse as _switchboard_webhooks_v1_CreateUsageTriggerResponse, CreateUsageTriggerResponse__Output as _switchboard_webhooks_v1_CreateUsageTriggerResponse__Output } from './switchboard/webhooks/v1/CreateUsageTriggerResponse.ts';
import type { DeleteAlertTriggerRequest as _switchboard_webhooks_v1_DeleteAlertTriggerRequest, DeleteAlertTriggerRequest__Output as _switchboard_webhooks_v1_DeleteAlertTriggerRequest__Output } from './switchboard/webhooks/v1/DeleteAlertTriggerRequest.ts';
import type { DeleteAlertTriggerResponse as _switchboard_webhooks_v1_DeleteAlertTriggerResponse, DeleteAlertTriggerResponse__Output as _switchboard_webhooks_v1_DeleteAlertTriggerResponse__Output } from './switchboard/webhooks/v1/DeleteAlertTriggerResponse.ts';
import type { DeleteSubscriptionRequest as _switchboard_webhooks_v1_DeleteSubscriptionRequest, DeleteSubscriptionRequest__Output as _switchboard_webhooks_v1_DeleteSubscriptionRequest__Output } from './switchboard/webhooks/v1/DeleteSubscriptionRequest.ts';
import type { DeleteSubscriptionResponse as _switchboard_webhooks_v1_DeleteSubscriptionResponse, DeleteSubscriptionResponse__Output as _switchboard_webhooks_v1_DeleteSubscriptionResponse__Output } from './switchboard/webhooks/v1/DeleteSubscriptionResponse.ts';
import type { DeleteUsageTriggerRequest as _switchboard_webhooks_v1_DeleteUsageTriggerRequest, DeleteUsageTriggerRequest__Output as _switchboard_webhooks_v1_DeleteUsageTriggerRequest__Output } from './switchboard/webhooks/v1/DeleteUsageTriggerRequest.ts';
import type { DeleteUsageTriggerResponse as _switchboard_webhooks_v1_DeleteUsageTriggerResponse, DeleteUsageTriggerResponse__Output as _switchboard_webhooks_v1_DeleteUsageTriggerResponse__Output } from './switchboard/webhooks/v1/DeleteUsageTriggerResponse.ts';
import type { Delivery as _switchboard_webhooks_v1_Delivery, Delivery__Output as _switchboard_webhooks_v1_Delivery__Output } from './switchboard/webhooks/v1/Delivery.ts';
import type { DeliveryStatsBucket as _switchboard_webhooks_v1_DeliveryStatsBucket, DeliveryStatsBucket__Output as _switchboard_webhooks_v1_DeliveryStatsBucket__Output } from './switchboard/webhooks/v1/DeliveryStatsBucket.ts';
import type { GetAlertRequest as _switchboard_webhooks_v1_GetAlertRequest, GetAlertRequest__Output as _switchboard_webhooks_v1_GetAlertRequest__Output } from './switchboard/webhooks/v1/GetAlertRequest.ts';
import type { GetAlertResponse as _switchboard_webhooks_v1_GetAlertResponse, GetAlertResponse__Output as _switchboard_webhooks_v1_GetAlertResponse__Output } from './switchboard/webhooks/v1/GetAlertResponse.ts';
import type { GetAlertTriggerRequest as _switchboard_webhooks_v1_GetAlertTriggerRequest, GetAlertTriggerRequest__Output as _switchboard_webhooks_v1_GetAlertTriggerRequest__Output } from './switchboard/webhooks/v1/GetAlertTriggerRequest.ts';
import type { GetAlertTriggerResponse as _switchboard_webhooks_v1_GetAlertTriggerResponse, GetAlertTriggerResponse__Output as _switchboard_webhooks_v1_GetAlertTriggerResponse__Output } from './switchboard/webhooks/v1/GetAlertTriggerResponse.ts';
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
import type { GetUsageRequest as _switchboard_webhooks_v1_GetUsageRequest, GetUsageRequest__Output as _switchboard_webhooks_v1_GetUsageRequest__Output } from './switchboard/webhooks/v1/GetUsageRequest.ts';
import type { GetUsageResponse as _switchboard_webhooks_v1_GetUsageResponse, GetUsageResponse__Output as _switchboard_webhooks_v1_GetUsageResponse__Output } from './switchboard/webhooks/v1/GetUsageResponse.ts';
import type { GetUsageTriggerRequest as _switchboard_webhooks_v1_GetUsageTriggerRequest, GetUsageTriggerRequest__Output as _switchboard_webhooks_v1_GetUsageTriggerRequest__Output } from './switchboard/webhooks/v1/GetUsageTriggerRequest.ts';
import type { GetUsageTriggerResponse as _switchboard_webhooks_v1_GetUsageTriggerResponse, GetUsageTriggerResponse__Output as _switchboard_webhooks_v1_GetUsageTriggerResponse__Output } from './switchboard/webhooks/v1/GetUsageTriggerResponse.ts';
import type { ListAlertTriggersRequest as _switchboard_webhooks_v1_ListAlertTriggersRequest, ListAlertTriggersRequest__Output as _switchboard_webhooks_v1_ListAlertTriggersRequest__Output } from './switchboard/webhooks/v1/ListAlertTriggersRequest.ts';
import type { ListAlertTriggersResponse as _switchboard_webhooks_v1_ListAlertTriggersResponse, ListAlertTriggersResponse__Output as _switchboard_webhooks_v1_ListAlertTriggersResponse__Output } from './switchboard/webhooks/v1/ListAlertTriggersResponse.ts';
import type { ListAlertsRequest as _switchboard_webhooks_v1_ListAlertsRequest, ListAlertsRequest__Output as _switchboard_webhooks_v1_ListAlertsRequest__Output } from './switchboard/webhooks/v1/ListAlertsRequest.ts';
import type { ListAlertsResponse as _switchboard_webhooks_v1_ListAlertsResponse, ListAlertsResponse__Output as _switchboard_webhooks_v1_ListAlertsResponse__Output } from './switchboard/webhooks/v1/ListAlertsResponse.ts';
import type { ListDeliveriesRequest as _switchboard_webhooks_v1_ListDeliveriesRequest, ListDeliveriesRequest__Output as _switchboard_webhooks_v1_ListDeliveriesRequest__Output } from './switchboard/webhooks/v1/ListDeliveriesRequest.ts';
import type { ListDeliveriesResponse as _switchboard_webhooks_v1_ListDeliveriesResponse, ListDeliveriesResponse__Output as _switchboard_webhooks_v1_ListDeliveriesResponse__Output } from './switchboard/webhooks/v1/ListDeliveriesResponse.ts';
import type { ListSessionsRequest as _switchboard_webhooks_v1_ListSessionsRequest, ListSessionsRequest__Output as _switchboard_webhooks_v1_ListSessionsRequest__Output } from './switchboard/webhooks/v1/ListSessionsRequest.ts';
import type { ListSessionsResponse as _switchboard_webhooks_v1_ListSessionsResponse, ListSessionsResponse__Output as _switchboard_webhooks_v1_ListSessionsResponse__Output } from './switchboard/webhooks/v1/ListSessionsResponse.ts';
import type { ListSubscriptionsRequest as _switchboard_webhooks_v1_ListSubscriptionsRequest, ListSubscriptionsRequest__Output as _switchboard_webhooks_v1_ListSubscriptionsRequest__Output } from './switchboard/webhooks/v1/ListSubscriptionsRequest.ts';
import type { ListSubscriptionsResponse as _switchboard_webhooks_v1_ListSubscriptionsResponse, ListSubscriptionsResponse__Output as _switchboard_webhooks_v1_ListSubscriptionsResponse__Output } from './switchboard/webhooks/v1/ListSubscriptionsResponse.ts';
import type { ListUsageTriggersRequest as _switchboard_webhooks_v1_ListUsageTriggersRequest, ListUsageTriggersRequest__Output as _switchboard_webhooks_v1_ListUsageTriggersRequest__Output } from './switchboard/webhooks/v1/ListUsageTriggersRequest.ts';
import type { ListUsageTriggersResponse as _switchboard_webhooks_v1_ListUsageTriggersResponse, ListUsageTriggersResponse__Output as _switchboard_webhooks_v1_ListUsageTriggersResponse__Output } from './switchboard/webhooks/v1/ListUsageTriggersResponse.ts';
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
import type { SentBody as _switchboard_webhooks_v1_SentBody, SentBody__Output as _switchboard_webhooks_v1_SentBody__Output } from './switchboard/webhooks/v1/SentBody.ts';
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
import type { UsagePeriod as _switchboard_webhooks_v1_UsagePeriod, UsagePeriod__Output as _switchboard_webhooks_v1_UsagePeriod__Output } from './switchboard/webhooks/v1/UsagePeriod.ts';
import type { UsageTrigger as _switchboard_webhooks_v1_UsageTrigger, UsageTrigger__Output as _switchboard_webhooks_v1_UsageTrigger__Output } from './switchboard/webhooks/v1/UsageTrigger.ts';
import type { WebhooksServiceClient as _switchboard_webhooks_v1_WebhooksServiceClient, WebhooksServiceDefinition as _switchboard_webhooks_v1_WebhooksServiceDefinition } from './switchboard/webhooks/v1/WebhooksService.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  switchboard: {
    applications: {
      v1: {
        Account: MessageTypeDefinition<_switchboard_applications_v1_Account, _switchboard_applications_v1_Account__Output>
        AccountsService: SubtypeConstructor<typeof grpc.Client, _switchboard_applications_v1_AccountsServiceClient> & { service: _switchboard_applications_v1_AccountsServiceDefinition }
        Address: MessageTypeDefinition<_switchboard_applications_v1_Address, _switchboard_applications_v1_Address__Output>
        AddressesService: SubtypeConstructor<typeof grpc.Client, _switchboard_applications_v1_AddressesServiceClient> & { service: _switchboard_applications_v1_AddressesServiceDefinition }
        ApiKey: MessageTypeDefinition<_switchboard_applications_v1_ApiKey, _switchboard_applications_v1_ApiKey__Output>
        ApiKeysService: SubtypeConstructor<typeof grpc.Client, _switchboard_applications_v1_ApiKeysServiceClient> & { service: _switchboard_applications_v1_ApiKeysServiceDefinition }
        Application: MessageTypeDefinition<_switchboard_applications_v1_Application, _switchboard_applications_v1_Application__Output>
        ApplicationsService: SubtypeConstructor<typeof grpc.Client, _switchboard_applications_v1_ApplicationsServiceClient> & { service: _switchboard_applications_v1_ApplicationsServiceDefinition }
        AuditEvent: MessageTypeDefinition<_switchboard_applications_v1_AuditEvent, _switchboard_applications_v1_AuditEvent__Output>
        AuditService: SubtypeConstructor<typeof grpc.Client, _switchboard_applications_v1_AuditServiceClient> & { service: _switchboard_applications_v1_AuditServiceDefinition }
        ChangePasswordRequest: MessageTypeDefinition<_switchboard_applications_v1_ChangePasswordRequest, _switchboard_applications_v1_ChangePasswordRequest__Output>
        ChangePasswordResponse: MessageTypeDefinition<_switchboard_applications_v1_ChangePasswordResponse, _switchboard_applications_v1_ChangePasswordResponse__Output>
        ClaimAddressRequest: MessageTypeDefinition<_switchboard_applications_v1_ClaimAddressRequest, _switchboard_applications_v1_ClaimAddressRequest__Output>
        ClaimAddressResponse: MessageTypeDefinition<_switchboard_applications_v1_ClaimAddressResponse, _switchboard_applications_v1_ClaimAddressResponse__Output>
        ConsoleSessionsService: SubtypeConstructor<typeof grpc.Client, _switchboard_applications_v1_ConsoleSessionsServiceClient> & { service: _switchboard_applications_v1_ConsoleSessionsServiceDefinition }
        CreateApiKeyRequest: MessageTypeDefinition<_switchboard_applications_v1_CreateApiKeyRequest, _switchboard_applications_v1_CreateApiKeyRequest__Output>
        CreateApiKeyResponse: MessageTypeDefinition<_switchboard_applications_v1_CreateApiKeyResponse, _switchboard_applications_v1_CreateApiKeyResponse__Output>
        CreateApplicationRequest: MessageTypeDefinition<_switchboard_applications_v1_CreateApplicationRequest, _switchboard_applications_v1_CreateApplicationRequest__Output>
        CreateApplicationResponse: MessageTypeDefinition<_switchboard_applications_v1_CreateApplicationResponse, _switchboard_applications_v1_CreateApplicationResponse__Output>
        CreateConsoleSessionRequest: MessageTypeDefinition<_switchboard_applications_v1_CreateConsoleSessionRequest, _switchboard_applications_v1_CreateConsoleSessionRequest__Output>
        CreateConsoleSessionResponse: MessageTypeDefinition<_switchboard_applications_v1_CreateConsoleSessionResponse, _switchboard_applications_v1_CreateConsoleSessionResponse__Output>
        DeleteApplicationRequest: MessageTypeDefinition<_switchboard_applications_v1_DeleteApplicationRequest, _switchboard_applications_v1_DeleteApplicationRequest__Output>
        DeleteApplicationResponse: MessageTypeDefinition<_switchboard_applications_v1_DeleteApplicationResponse, _switchboard_applications_v1_DeleteApplicationResponse__Output>
        EndConsoleSessionRequest: MessageTypeDefinition<_switchboard_applications_v1_EndConsoleSessionRequest, _switchboard_applications_v1_EndConsoleSessionRequest__Output>
        EndConsoleSessionResponse: MessageTypeDefinition<_switchboard_applications_v1_EndConsoleSessionResponse, _switchboard_applications_v1_EndConsoleSessionResponse__Output>
        Environment: MessageTypeDefinition<_switchboard_applications_v1_Environment, _switchboard_applications_v1_Environment__Output>
        Exchange: MessageTypeDefinition<_switchboard_applications_v1_Exchange, _switchboard_applications_v1_Exchange__Output>
        GetAccountRequest: MessageTypeDefinition<_switchboard_applications_v1_GetAccountRequest, _switchboard_applications_v1_GetAccountRequest__Output>
        GetAccountResponse: MessageTypeDefinition<_switchboard_applications_v1_GetAccountResponse, _switchboard_applications_v1_GetAccountResponse__Output>
        GetAddressRequest: MessageTypeDefinition<_switchboard_applications_v1_GetAddressRequest, _switchboard_applications_v1_GetAddressRequest__Output>
        GetAddressResponse: MessageTypeDefinition<_switchboard_applications_v1_GetAddressResponse, _switchboard_applications_v1_GetAddressResponse__Output>
        GetApiKeyRequest: MessageTypeDefinition<_switchboard_applications_v1_GetApiKeyRequest, _switchboard_applications_v1_GetApiKeyRequest__Output>
        GetApiKeyResponse: MessageTypeDefinition<_switchboard_applications_v1_GetApiKeyResponse, _switchboard_applications_v1_GetApiKeyResponse__Output>
        GetApplicationRequest: MessageTypeDefinition<_switchboard_applications_v1_GetApplicationRequest, _switchboard_applications_v1_GetApplicationRequest__Output>
        GetApplicationResponse: MessageTypeDefinition<_switchboard_applications_v1_GetApplicationResponse, _switchboard_applications_v1_GetApplicationResponse__Output>
        GetApplicationSecretRequest: MessageTypeDefinition<_switchboard_applications_v1_GetApplicationSecretRequest, _switchboard_applications_v1_GetApplicationSecretRequest__Output>
        GetApplicationSecretResponse: MessageTypeDefinition<_switchboard_applications_v1_GetApplicationSecretResponse, _switchboard_applications_v1_GetApplicationSecretResponse__Output>
        GetEnvironmentRequest: MessageTypeDefinition<_switchboard_applications_v1_GetEnvironmentRequest, _switchboard_applications_v1_GetEnvironmentRequest__Output>
        GetEnvironmentResponse: MessageTypeDefinition<_switchboard_applications_v1_GetEnvironmentResponse, _switchboard_applications_v1_GetEnvironmentResponse__Output>
        LaunchSessionRequest: MessageTypeDefinition<_switchboard_applications_v1_LaunchSessionRequest, _switchboard_applications_v1_LaunchSessionRequest__Output>
        LaunchSessionResponse: MessageTypeDefinition<_switchboard_applications_v1_LaunchSessionResponse, _switchboard_applications_v1_LaunchSessionResponse__Output>
        ListAddressesRequest: MessageTypeDefinition<_switchboard_applications_v1_ListAddressesRequest, _switchboard_applications_v1_ListAddressesRequest__Output>
        ListAddressesResponse: MessageTypeDefinition<_switchboard_applications_v1_ListAddressesResponse, _switchboard_applications_v1_ListAddressesResponse__Output>
        ListApiKeysRequest: MessageTypeDefinition<_switchboard_applications_v1_ListApiKeysRequest, _switchboard_applications_v1_ListApiKeysRequest__Output>
        ListApiKeysResponse: MessageTypeDefinition<_switchboard_applications_v1_ListApiKeysResponse, _switchboard_applications_v1_ListApiKeysResponse__Output>
        ListApplicationsRequest: MessageTypeDefinition<_switchboard_applications_v1_ListApplicationsRequest, _switchboard_applications_v1_ListApplicationsRequest__Output>
        ListApplicationsResponse: MessageTypeDefinition<_switchboard_applications_v1_ListApplicationsResponse, _switchboard_applications_v1_ListApplicationsResponse__Output>
        ListAuditEventsRequest: MessageTypeDefinition<_switchboard_applications_v1_ListAuditEventsRequest, _switchboard_applications_v1_ListAuditEventsRequest__Output>
        ListAuditEventsResponse: MessageTypeDefinition<_switchboard_applications_v1_ListAuditEventsResponse, _switchboard_applications_v1_ListAuditEventsResponse__Output>
        ListAvailableNumbersRequest: MessageTypeDefinition<_switchboard_applications_v1_ListAvailableNumbersRequest, _switchboard_applications_v1_ListAvailableNumbersRequest__Output>
        ListAvailableNumbersResponse: MessageTypeDefinition<_switchboard_applications_v1_ListAvailableNumbersResponse, _switchboard_applications_v1_ListAvailableNumbersResponse__Output>
        ListExchangesRequest: MessageTypeDefinition<_switchboard_applications_v1_ListExchangesRequest, _switchboard_applications_v1_ListExchangesRequest__Output>
        ListExchangesResponse: MessageTypeDefinition<_switchboard_applications_v1_ListExchangesResponse, _switchboard_applications_v1_ListExchangesResponse__Output>
        LookupApplicationRequest: MessageTypeDefinition<_switchboard_applications_v1_LookupApplicationRequest, _switchboard_applications_v1_LookupApplicationRequest__Output>
        LookupApplicationResponse: MessageTypeDefinition<_switchboard_applications_v1_LookupApplicationResponse, _switchboard_applications_v1_LookupApplicationResponse__Output>
        MoveAddressRequest: MessageTypeDefinition<_switchboard_applications_v1_MoveAddressRequest, _switchboard_applications_v1_MoveAddressRequest__Output>
        MoveAddressResponse: MessageTypeDefinition<_switchboard_applications_v1_MoveAddressResponse, _switchboard_applications_v1_MoveAddressResponse__Output>
        RecordAuditEventRequest: MessageTypeDefinition<_switchboard_applications_v1_RecordAuditEventRequest, _switchboard_applications_v1_RecordAuditEventRequest__Output>
        RecordAuditEventResponse: MessageTypeDefinition<_switchboard_applications_v1_RecordAuditEventResponse, _switchboard_applications_v1_RecordAuditEventResponse__Output>
        ReleaseAddressRequest: MessageTypeDefinition<_switchboard_applications_v1_ReleaseAddressRequest, _switchboard_applications_v1_ReleaseAddressRequest__Output>
        ReleaseAddressResponse: MessageTypeDefinition<_switchboard_applications_v1_ReleaseAddressResponse, _switchboard_applications_v1_ReleaseAddressResponse__Output>
        ResolveAddressRequest: MessageTypeDefinition<_switchboard_applications_v1_ResolveAddressRequest, _switchboard_applications_v1_ResolveAddressRequest__Output>
        ResolveAddressResponse: MessageTypeDefinition<_switchboard_applications_v1_ResolveAddressResponse, _switchboard_applications_v1_ResolveAddressResponse__Output>
        RevokeApiKeyRequest: MessageTypeDefinition<_switchboard_applications_v1_RevokeApiKeyRequest, _switchboard_applications_v1_RevokeApiKeyRequest__Output>
        RevokeApiKeyResponse: MessageTypeDefinition<_switchboard_applications_v1_RevokeApiKeyResponse, _switchboard_applications_v1_RevokeApiKeyResponse__Output>
        RotateApplicationSecretRequest: MessageTypeDefinition<_switchboard_applications_v1_RotateApplicationSecretRequest, _switchboard_applications_v1_RotateApplicationSecretRequest__Output>
        RotateApplicationSecretResponse: MessageTypeDefinition<_switchboard_applications_v1_RotateApplicationSecretResponse, _switchboard_applications_v1_RotateApplicationSecretResponse__Output>
        SessionsService: SubtypeConstructor<typeof grpc.Client, _switchboard_applications_v1_SessionsServiceClient> & { service: _switchboard_applications_v1_SessionsServiceDefinition }
        SignalSessionRequest: MessageTypeDefinition<_switchboard_applications_v1_SignalSessionRequest, _switchboard_applications_v1_SignalSessionRequest__Output>
        SignalSessionResponse: MessageTypeDefinition<_switchboard_applications_v1_SignalSessionResponse, _switchboard_applications_v1_SignalSessionResponse__Output>
        UpdateApplicationRequest: MessageTypeDefinition<_switchboard_applications_v1_UpdateApplicationRequest, _switchboard_applications_v1_UpdateApplicationRequest__Output>
        UpdateApplicationResponse: MessageTypeDefinition<_switchboard_applications_v1_UpdateApplicationResponse, _switchboard_applications_v1_UpdateApplicationResponse__Output>
        VerifyApiKeyRequest: MessageTypeDefinition<_switchboard_applications_v1_VerifyApiKeyRequest, _switchboard_applications_v1_VerifyApiKeyRequest__Output>
        VerifyApiKeyResponse: MessageTypeDefinition<_switchboard_applications_v1_VerifyApiKeyResponse, _switchboard_applications_v1_VerifyApiKeyResponse__Output>
        VerifyConsoleSessionRequest: MessageTypeDefinition<_switchboard_applications_v1_VerifyConsoleSessionRequest, _switchboard_applications_v1_VerifyConsoleSessionRequest__Output>
        VerifyConsoleSessionResponse: MessageTypeDefinition<_switchboard_applications_v1_VerifyConsoleSessionResponse, _switchboard_applications_v1_VerifyConsoleSessionResponse__Output>
        VerifyCredentialsRequest: MessageTypeDefinition<_switchboard_applications_v1_VerifyCredentialsRequest, _switchboard_applications_v1_VerifyCredentialsRequest__Output>
        VerifyCredentialsResponse: MessageTypeDefinition<_switchboard_applications_v1_VerifyCredentialsResponse, _switchboard_applications_v1_VerifyCredentialsResponse__Output>
      }
    }
    webhooks: {
      v1: {
        Alert: MessageTypeDefinition<_switchboard_webhooks_v1_Alert, _switchboard_webhooks_v1_Alert__Output>
        AlertTrigger: MessageTypeDefinition<_switchboard_webhooks_v1_AlertTrigger, _switchboard_webhooks_v1_AlertTrigger__Output>
        CreateAlertTriggerRequest: MessageTypeDefinition<_switchboard_webhooks_v1_CreateAlertTriggerRequest, _switchboard_webhooks_v1_CreateAlertTriggerRequest__Output>
        CreateAlertTriggerResponse: MessageTypeDefinition<_switchboard_webhooks_v1_CreateAlertTriggerResponse, _switchboard_webhooks_v1_CreateAlertTriggerResponse__Output>
        CreateSubscriptionRequest: MessageTypeDefinition<_switchboard_webhooks_v1_CreateSubscriptionRequest, _switchboard_webhooks_v1_CreateSubscriptionRequest__Output>
        CreateSubscriptionResponse: MessageTypeDefinition<_switchboard_webhooks_v1_CreateSubscriptionResponse, _switchboard_webhooks_v1_CreateSubscriptionResponse__Output>
        CreateUsageTriggerRequest: MessageTypeDefinition<_switchboard_webhooks_v1_CreateUsageTriggerRequest, _switchboard_webhooks_v1_CreateUsageTriggerRequest__Output>
        CreateUsageTriggerResponse: MessageTypeDefinition<_switchboard_webhooks_v1_CreateUsageTriggerResponse, _switchboard_webhooks_v1_CreateUsageTriggerResponse__Output>
        DeleteAlertTriggerRequest: MessageTypeDefinition<_switchboard_webhooks_v1_DeleteAlertTriggerRequest, _switchboard_webhooks_v1_DeleteAlertTriggerRequest__Output>
        DeleteAlertTriggerResponse: MessageTypeDefinition<_switchboard_webhooks_v1_DeleteAlertTriggerResponse, _switchboard_webhooks_v1_DeleteAlertTriggerResponse__Output>
        DeleteSubscriptionRequest: MessageTypeDefinition<_switchboard_webhooks_v1_DeleteSubscriptionRequest, _switchboard_webhooks_v1_DeleteSubscriptionRequest__Output>
        DeleteSubscriptionResponse: MessageTypeDefinition<_switchboard_webhooks_v1_DeleteSubscriptionResponse, _switchboard_webhooks_v1_DeleteSubscriptionResponse__Output>
        DeleteUsageTriggerRequest: MessageTypeDefinition<_switchboard_webhooks_v1_DeleteUsageTriggerRequest, _switchboard_webhooks_v1_DeleteUsageTriggerRequest__Output>
        DeleteUsageTriggerResponse: MessageTypeDefinition<_switchboard_webhooks_v1_DeleteUsageTriggerResponse, _switchboard_webhooks_v1_DeleteUsageTriggerResponse__Output>
        Delivery: MessageTypeDefinition<_switchboard_webhooks_v1_Delivery, _switchboard_webhooks_v1_Delivery__Output>
        DeliveryKind: EnumTypeDefinition
        DeliveryOutcome: EnumTypeDefinition
        DeliveryStatsBucket: MessageTypeDefinition<_switchboard_webhooks_v1_DeliveryStatsBucket, _switchboard_webhooks_v1_DeliveryStatsBucket__Output>
        GetAlertRequest: MessageTypeDefinition<_switchboard_webhooks_v1_GetAlertRequest, _switchboard_webhooks_v1_GetAlertRequest__Output>
        GetAlertResponse: MessageTypeDefinition<_switchboard_webhooks_v1_GetAlertResponse, _switchboard_webhooks_v1_GetAlertResponse__Output>
        GetAlertTriggerRequest: MessageTypeDefinition<_switchboard_webhooks_v1_GetAlertTriggerRequest, _switchboard_webhooks_v1_GetAlertTriggerRequest__Output>
        GetAlertTriggerResponse: MessageTypeDefinition<_switchboard_webhooks_v1_GetAlertTriggerResponse, _switchboard_webhooks_v1_GetAlertTriggerResponse__Output>
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
        GetUsageRequest: MessageTypeDefinition<_switchboard_webhooks_v1_GetUsageRequest, _switchboard_webhooks_v1_GetUsageRequest__Output>
        GetUsageResponse: MessageTypeDefinition<_switchboard_webhooks_v1_GetUsageResponse, _switchboard_webhooks_v1_GetUsageResponse__Output>
        GetUsageTriggerRequest: MessageTypeDefinition<_switchboard_webhooks_v1_GetUsageTriggerRequest, _switchboard_webhooks_v1_GetUsageTriggerRequest__Output>
        GetUsageTriggerResponse: MessageTypeDefinition<_switchboard_webhooks_v1_GetUsageTriggerResponse, _switchboard_webhooks_v1_GetUsageTriggerResponse__Output>
        ListAlertTriggersRequest: MessageTypeDefinition<_switchboard_webhooks_v1_ListAlertTriggersRequest, _switchboard_webhooks_v1_ListAlertTriggersRequest__Output>
        ListAlertTriggersResponse: MessageTypeDefinition<_switchboard_webhooks_v1_ListAlertTriggersResponse, _switchboard_webhooks_v1_ListAlertTriggersResponse__Output>
        ListAlertsRequest: MessageTypeDefinition<_switchboard_webhooks_v1_ListAlertsRequest, _switchboard_webhooks_v1_ListAlertsRequest__Output>
        ListAlertsResponse: MessageTypeDefinition<_switchboard_webhooks_v1_ListAlertsResponse, _switchboard_webhooks_v1_ListAlertsResponse__Output>
        ListDeliveriesRequest: MessageTypeDefinition<_switchboard_webhooks_v1_ListDeliveriesRequest, _switchboard_webhooks_v1_ListDeliveriesRequest__Output>
        ListDeliveriesResponse: MessageTypeDefinition<_switchboard_webhooks_v1_ListDeliveriesResponse, _switchboard_webhooks_v1_ListDeliveriesResponse__Output>
        ListSessionsRequest: MessageTypeDefinition<_switchboard_webhooks_v1_ListSessionsRequest, _switchboard_webhooks_v1_ListSessionsRequest__Output>
        ListSessionsResponse: MessageTypeDefinition<_switchboard_webhooks_v1_ListSessionsResponse, _switchboard_webhooks_v1_ListSessionsResponse__Output>
        ListSubscriptionsRequest: MessageTypeDefinition<_switchboard_webhooks_v1_ListSubscriptionsRequest, _switchboard_webhooks_v1_ListSubscriptionsRequest__Output>
        ListSubscriptionsResponse: MessageTypeDefinition<_switchboard_webhooks_v1_ListSubscriptionsResponse, _switchboard_webhooks_v1_ListSubscriptionsResponse__Output>
        ListUsageTriggersRequest: MessageTypeDefinition<_switchboard_webhooks_v1_ListUsageTriggersRequest, _switchboard_webhooks_v1_ListUsageTriggersRequest__Output>
        ListUsageTriggersResponse: MessageTypeDefinition<_switchboard_webhooks_v1_ListUsageTriggersResponse, _switchboard_webhooks_v1_ListUsageTriggersResponse__Output>
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
        SentBody: MessageTypeDefinition<_switchboard_webhooks_v1_SentBody, _switchboard_webhooks_v1_SentBody__Output>
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
        UsagePeriod: MessageTypeDefinition<_switchboard_webhooks_v1_UsagePeriod, _switchboard_webhooks_v1_UsagePeriod__Output>
        UsageTrigger: MessageTypeDefinition<_switchboard_webhooks_v1_UsageTrigger, _switchboard_webhooks_v1_UsageTrigger__Output>
        WebhooksService: SubtypeConstructor<typeof grpc.Client, _switchboard_webhooks_v1_WebhooksServiceClient> & { service: _switchboard_webhooks_v1_WebhooksServiceDefinition }
      }
    }
  }
}

