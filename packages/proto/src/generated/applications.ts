import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { Account as _switchboard_applications_v1_Account, Account__Output as _switchboard_applications_v1_Account__Output } from './switchboard/applications/v1/Account.ts';
import type { AccountsServiceClient as _switchboard_applications_v1_AccountsServiceClient, AccountsServiceDefinition as _switchboard_applications_v1_AccountsServiceDefinition } from './switchboard/applications/v1/AccountsService.ts';
import type { Address as _switchboard_applications_v1_Address, Address__Output as _switchboard_applications_v1_Address__Output } from './switchboard/applications/v1/Address.ts';
import type { AddressesServiceClient as _switchboard_applications_v1_AddressesServiceClient, AddressesServiceDefinition as _switchboard_applications_v1_AddressesServiceDefinition } from './switchboard/applications/v1/AddressesService.ts';
import type { Application as _switchboard_applications_v1_Application, Application__Output as _switchboard_applications_v1_Application__Output } from './switchboard/applications/v1/Application.ts';
import type { ApplicationsServiceClient as _switchboard_applications_v1_ApplicationsServiceClient, ApplicationsServiceDefinition as _switchboard_applications_v1_ApplicationsServiceDefinition } from './switchboard/applications/v1/ApplicationsService.ts';
import type { ClaimAddressRequest as _switchboard_applications_v1_ClaimAddressRequest, ClaimAddressRequest__Output as _switchboard_applications_v1_ClaimAddressRequest__Output } from './switchboard/applications/v1/ClaimAddressRequest.ts';
import type { ClaimAddressResponse as _switchboard_applications_v1_ClaimAddressResponse, ClaimAddressResponse__Output as _switchboard_applications_v1_ClaimAddressResponse__Output } from './switchboard/applications/v1/ClaimAddressResponse.ts';
import type { CreateApplicationRequest as _switchboard_applications_v1_CreateApplicationRequest, CreateApplicationRequest__Output as _switchboard_applications_v1_CreateApplicationRequest__Output } from './switchboard/applications/v1/CreateApplicationRequest.ts';
import type { CreateApplicationResponse as _switchboard_applications_v1_CreateApplicationResponse, CreateApplicationResponse__Output as _switchboard_applications_v1_CreateApplicationResponse__Output } from './switchboard/applications/v1/CreateApplicationResponse.ts';
import type { DeleteApplicationRequest as _switchboard_applications_v1_DeleteApplicationRequest, DeleteApplicationRequest__Output as _switchboard_applications_v1_DeleteApplicationRequest__Output } from './switchboard/applications/v1/DeleteApplicationRequest.ts';
import type { DeleteApplicationResponse as _switchboard_applications_v1_DeleteApplicationResponse, DeleteApplicationResponse__Output as _switchboard_applications_v1_DeleteApplicationResponse__Output } from './switchboard/applications/v1/DeleteApplicationResponse.ts';
import type { Environment as _switchboard_applications_v1_Environment, Environment__Output as _switchboard_applications_v1_Environment__Output } from './switchboard/applications/v1/Environment.ts';
import type { Exchange as _switchboard_applications_v1_Exchange, Exchange__Output as _switchboard_applications_v1_Exchange__Output } from './switchboard/applications/v1/Exchange.ts';
import type { GetAccountRequest as _switchboard_applications_v1_GetAccountRequest, GetAccountRequest__Output as _switchboard_applications_v1_GetAccountRequest__Output } from './switchboard/applications/v1/GetAccountRequest.ts';
import type { GetAccountResponse as _switchboard_applications_v1_GetAccountResponse, GetAccountResponse__Output as _switchboard_applications_v1_GetAccountResponse__Output } from './switchboard/applications/v1/GetAccountResponse.ts';
import type { GetAddressRequest as _switchboard_applications_v1_GetAddressRequest, GetAddressRequest__Output as _switchboard_applications_v1_GetAddressRequest__Output } from './switchboard/applications/v1/GetAddressRequest.ts';
import type { GetAddressResponse as _switchboard_applications_v1_GetAddressResponse, GetAddressResponse__Output as _switchboard_applications_v1_GetAddressResponse__Output } from './switchboard/applications/v1/GetAddressResponse.ts';
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
import type { ListApplicationsRequest as _switchboard_applications_v1_ListApplicationsRequest, ListApplicationsRequest__Output as _switchboard_applications_v1_ListApplicationsRequest__Output } from './switchboard/applications/v1/ListApplicationsRequest.ts';
import type { ListApplicationsResponse as _switchboard_applications_v1_ListApplicationsResponse, ListApplicationsResponse__Output as _switchboard_applications_v1_ListApplicationsResponse__Output } from './switchboard/applications/v1/ListApplicationsResponse.ts';
import type { ListAvailableNumbersRequest as _switchboard_applications_v1_ListAvailableNumbersRequest, ListAvailableNumbersRequest__Output as _switchboard_applications_v1_ListAvailableNumbersRequest__Output } from './switchboard/applications/v1/ListAvailableNumbersRequest.ts';
import type { ListAvailableNumbersResponse as _switchboard_applications_v1_ListAvailableNumbersResponse, ListAvailableNumbersResponse__Output as _switchboard_applications_v1_ListAvailableNumbersResponse__Output } from './switchboard/applications/v1/ListAvailableNumbersResponse.ts';
import type { ListExchangesRequest as _switchboard_applications_v1_ListExchangesRequest, ListExchangesRequest__Output as _switchboard_applications_v1_ListExchangesRequest__Output } from './switchboard/applications/v1/ListExchangesRequest.ts';
import type { ListExchangesResponse as _switchboard_applications_v1_ListExchangesResponse, ListExchangesResponse__Output as _switchboard_applications_v1_ListExchangesResponse__Output } from './switchboard/applications/v1/ListExchangesResponse.ts';
import type { LookupApplicationRequest as _switchboard_applications_v1_LookupApplicationRequest, LookupApplicationRequest__Output as _switchboard_applications_v1_LookupApplicationRequest__Output } from './switchboard/applications/v1/LookupApplicationRequest.ts';
import type { LookupApplicationResponse as _switchboard_applications_v1_LookupApplicationResponse, LookupApplicationResponse__Output as _switchboard_applications_v1_LookupApplicationResponse__Output } from './switchboard/applications/v1/LookupApplicationResponse.ts';
import type { MoveAddressRequest as _switchboard_applications_v1_MoveAddressRequest, MoveAddressRequest__Output as _switchboard_applications_v1_MoveAddressRequest__Output } from './switchboard/applications/v1/MoveAddressRequest.ts';
import type { MoveAddressResponse as _switchboard_applications_v1_MoveAddressResponse, MoveAddressResponse__Output as _switchboard_applications_v1_MoveAddressResponse__Output } from './switchboard/applications/v1/MoveAddressResponse.ts';
import type { ReleaseAddressRequest as _switchboard_applications_v1_ReleaseAddressRequest, ReleaseAddressRequest__Output as _switchboard_applications_v1_ReleaseAddressRequest__Output } from './switchboard/applications/v1/ReleaseAddressRequest.ts';
import type { ReleaseAddressResponse as _switchboard_applications_v1_ReleaseAddressResponse, ReleaseAddressResponse__Output as _switchboard_applications_v1_ReleaseAddressResponse__Output } from './switchboard/applications/v1/ReleaseAddressResponse.ts';
import type { ResolveAddressRequest as _switchboard_applications_v1_ResolveAddressRequest, ResolveAddressRequest__Output as _switchboard_applications_v1_ResolveAddressRequest__Output } from './switchboard/applications/v1/ResolveAddressRequest.ts';
import type { ResolveAddressResponse as _switchboard_applications_v1_ResolveAddressResponse, ResolveAddressResponse__Output as _switchboard_applications_v1_ResolveAddressResponse__Output } from './switchboard/applications/v1/ResolveAddressResponse.ts';
import type { RotateApplicationSecretRequest as _switchboard_applications_v1_RotateApplicationSecretRequest, RotateApplicationSecretRequest__Output as _switchboard_applications_v1_RotateApplicationSecretRequest__Output } from './switchboard/applications/v1/RotateApplicationSecretRequest.ts';
import type { RotateApplicationSecretResponse as _switchboard_applications_v1_RotateApplicationSecretResponse, RotateApplicationSecretResponse__Output as _switchboard_applications_v1_RotateApplicationSecretResponse__Output } from './switchboard/applications/v1/RotateApplicationSecretResponse.ts';
import type { SessionsServiceClient as _switchboard_applications_v1_SessionsServiceClient, SessionsServiceDefinition as _switchboard_applications_v1_SessionsServiceDefinition } from './switchboard/applications/v1/SessionsService.ts';
import type { SignalSessionRequest as _switchboard_applications_v1_SignalSessionRequest, SignalSessionRequest__Output as _switchboard_applications_v1_SignalSessionRequest__Output } from './switchboard/applications/v1/SignalSessionRequest.ts';
import type { SignalSessionResponse as _switchboard_applications_v1_SignalSessionResponse, SignalSessionResponse__Output as _switchboard_applications_v1_SignalSessionResponse__Output } from './switchboard/applications/v1/SignalSessionResponse.ts';
import type { UpdateApplicationRequest as _switchboard_applications_v1_UpdateApplicationRequest, UpdateApplicationRequest__Output as _switchboard_applications_v1_UpdateApplicationRequest__Output } from './switchboard/applications/v1/UpdateApplicationRequest.ts';
import type { UpdateApplicationResponse as _switchboard_applications_v1_UpdateApplicationResponse, UpdateApplicationResponse__Output as _switchboard_applications_v1_UpdateApplicationResponse__Output } from './switchboard/applications/v1/UpdateApplicationResponse.ts';
import type { VerifyCredentialsRequest as _switchboard_applications_v1_VerifyCredentialsRequest, VerifyCredentialsRequest__Output as _switchboard_applications_v1_VerifyCredentialsRequest__Output } from './switchboard/applications/v1/VerifyCredentialsRequest.ts';
import type { VerifyCredentialsResponse as _switchboard_applications_v1_VerifyCredentialsResponse, VerifyCredentialsResponse__Output as _switchboard_applications_v1_VerifyCredentialsResponse__Output } from './switchboard/applications/v1/VerifyCredentialsResponse.ts';

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
        Application: MessageTypeDefinition<_switchboard_applications_v1_Application, _switchboard_applications_v1_Application__Output>
        ApplicationsService: SubtypeConstructor<typeof grpc.Client, _switchboard_applications_v1_ApplicationsServiceClient> & { service: _switchboard_applications_v1_ApplicationsServiceDefinition }
        ClaimAddressRequest: MessageTypeDefinition<_switchboard_applications_v1_ClaimAddressRequest, _switchboard_applications_v1_ClaimAddressRequest__Output>
        ClaimAddressResponse: MessageTypeDefinition<_switchboard_applications_v1_ClaimAddressResponse, _switchboard_applications_v1_ClaimAddressResponse__Output>
        CreateApplicationRequest: MessageTypeDefinition<_switchboard_applications_v1_CreateApplicationRequest, _switchboard_applications_v1_CreateApplicationRequest__Output>
        CreateApplicationResponse: MessageTypeDefinition<_switchboard_applications_v1_CreateApplicationResponse, _switchboard_applications_v1_CreateApplicationResponse__Output>
        DeleteApplicationRequest: MessageTypeDefinition<_switchboard_applications_v1_DeleteApplicationRequest, _switchboard_applications_v1_DeleteApplicationRequest__Output>
        DeleteApplicationResponse: MessageTypeDefinition<_switchboard_applications_v1_DeleteApplicationResponse, _switchboard_applications_v1_DeleteApplicationResponse__Output>
        Environment: MessageTypeDefinition<_switchboard_applications_v1_Environment, _switchboard_applications_v1_Environment__Output>
        Exchange: MessageTypeDefinition<_switchboard_applications_v1_Exchange, _switchboard_applications_v1_Exchange__Output>
        GetAccountRequest: MessageTypeDefinition<_switchboard_applications_v1_GetAccountRequest, _switchboard_applications_v1_GetAccountRequest__Output>
        GetAccountResponse: MessageTypeDefinition<_switchboard_applications_v1_GetAccountResponse, _switchboard_applications_v1_GetAccountResponse__Output>
        GetAddressRequest: MessageTypeDefinition<_switchboard_applications_v1_GetAddressRequest, _switchboard_applications_v1_GetAddressRequest__Output>
        GetAddressResponse: MessageTypeDefinition<_switchboard_applications_v1_GetAddressResponse, _switchboard_applications_v1_GetAddressResponse__Output>
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
        ListApplicationsRequest: MessageTypeDefinition<_switchboard_applications_v1_ListApplicationsRequest, _switchboard_applications_v1_ListApplicationsRequest__Output>
        ListApplicationsResponse: MessageTypeDefinition<_switchboard_applications_v1_ListApplicationsResponse, _switchboard_applications_v1_ListApplicationsResponse__Output>
        ListAvailableNumbersRequest: MessageTypeDefinition<_switchboard_applications_v1_ListAvailableNumbersRequest, _switchboard_applications_v1_ListAvailableNumbersRequest__Output>
        ListAvailableNumbersResponse: MessageTypeDefinition<_switchboard_applications_v1_ListAvailableNumbersResponse, _switchboard_applications_v1_ListAvailableNumbersResponse__Output>
        ListExchangesRequest: MessageTypeDefinition<_switchboard_applications_v1_ListExchangesRequest, _switchboard_applications_v1_ListExchangesRequest__Output>
        ListExchangesResponse: MessageTypeDefinition<_switchboard_applications_v1_ListExchangesResponse, _switchboard_applications_v1_ListExchangesResponse__Output>
        LookupApplicationRequest: MessageTypeDefinition<_switchboard_applications_v1_LookupApplicationRequest, _switchboard_applications_v1_LookupApplicationRequest__Output>
        LookupApplicationResponse: MessageTypeDefinition<_switchboard_applications_v1_LookupApplicationResponse, _switchboard_applications_v1_LookupApplicationResponse__Output>
        MoveAddressRequest: MessageTypeDefinition<_switchboard_applications_v1_MoveAddressRequest, _switchboard_applications_v1_MoveAddressRequest__Output>
        MoveAddressResponse: MessageTypeDefinition<_switchboard_applications_v1_MoveAddressResponse, _switchboard_applications_v1_MoveAddressResponse__Output>
        ReleaseAddressRequest: MessageTypeDefinition<_switchboard_applications_v1_ReleaseAddressRequest, _switchboard_applications_v1_ReleaseAddressRequest__Output>
        ReleaseAddressResponse: MessageTypeDefinition<_switchboard_applications_v1_ReleaseAddressResponse, _switchboard_applications_v1_ReleaseAddressResponse__Output>
        ResolveAddressRequest: MessageTypeDefinition<_switchboard_applications_v1_ResolveAddressRequest, _switchboard_applications_v1_ResolveAddressRequest__Output>
        ResolveAddressResponse: MessageTypeDefinition<_switchboard_applications_v1_ResolveAddressResponse, _switchboard_applications_v1_ResolveAddressResponse__Output>
        RotateApplicationSecretRequest: MessageTypeDefinition<_switchboard_applications_v1_RotateApplicationSecretRequest, _switchboard_applications_v1_RotateApplicationSecretRequest__Output>
        RotateApplicationSecretResponse: MessageTypeDefinition<_switchboard_applications_v1_RotateApplicationSecretResponse, _switchboard_applications_v1_RotateApplicationSecretResponse__Output>
        SessionsService: SubtypeConstructor<typeof grpc.Client, _switchboard_applications_v1_SessionsServiceClient> & { service: _switchboard_applications_v1_SessionsServiceDefinition }
        SignalSessionRequest: MessageTypeDefinition<_switchboard_applications_v1_SignalSessionRequest, _switchboard_applications_v1_SignalSessionRequest__Output>
        SignalSessionResponse: MessageTypeDefinition<_switchboard_applications_v1_SignalSessionResponse, _switchboard_applications_v1_SignalSessionResponse__Output>
        UpdateApplicationRequest: MessageTypeDefinition<_switchboard_applications_v1_UpdateApplicationRequest, _switchboard_applications_v1_UpdateApplicationRequest__Output>
        UpdateApplicationResponse: MessageTypeDefinition<_switchboard_applications_v1_UpdateApplicationResponse, _switchboard_applications_v1_UpdateApplicationResponse__Output>
        VerifyCredentialsRequest: MessageTypeDefinition<_switchboard_applications_v1_VerifyCredentialsRequest, _switchboard_applications_v1_VerifyCredentialsRequest__Output>
        VerifyCredentialsResponse: MessageTypeDefinition<_switchboard_applications_v1_VerifyCredentialsResponse, _switchboard_applications_v1_VerifyCredentialsResponse__Output>
      }
    }
  }
}

