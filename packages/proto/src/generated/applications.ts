import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { Account as _switchboard_applications_v1_Account, Account__Output as _switchboard_applications_v1_Account__Output } from './switchboard/applications/v1/Account';
import type { AccountsServiceClient as _switchboard_applications_v1_AccountsServiceClient, AccountsServiceDefinition as _switchboard_applications_v1_AccountsServiceDefinition } from './switchboard/applications/v1/AccountsService';
import type { Application as _switchboard_applications_v1_Application, Application__Output as _switchboard_applications_v1_Application__Output } from './switchboard/applications/v1/Application';
import type { ApplicationsServiceClient as _switchboard_applications_v1_ApplicationsServiceClient, ApplicationsServiceDefinition as _switchboard_applications_v1_ApplicationsServiceDefinition } from './switchboard/applications/v1/ApplicationsService';
import type { CreateApplicationRequest as _switchboard_applications_v1_CreateApplicationRequest, CreateApplicationRequest__Output as _switchboard_applications_v1_CreateApplicationRequest__Output } from './switchboard/applications/v1/CreateApplicationRequest';
import type { CreateApplicationResponse as _switchboard_applications_v1_CreateApplicationResponse, CreateApplicationResponse__Output as _switchboard_applications_v1_CreateApplicationResponse__Output } from './switchboard/applications/v1/CreateApplicationResponse';
import type { DeleteApplicationRequest as _switchboard_applications_v1_DeleteApplicationRequest, DeleteApplicationRequest__Output as _switchboard_applications_v1_DeleteApplicationRequest__Output } from './switchboard/applications/v1/DeleteApplicationRequest';
import type { DeleteApplicationResponse as _switchboard_applications_v1_DeleteApplicationResponse, DeleteApplicationResponse__Output as _switchboard_applications_v1_DeleteApplicationResponse__Output } from './switchboard/applications/v1/DeleteApplicationResponse';
import type { Environment as _switchboard_applications_v1_Environment, Environment__Output as _switchboard_applications_v1_Environment__Output } from './switchboard/applications/v1/Environment';
import type { GetAccountRequest as _switchboard_applications_v1_GetAccountRequest, GetAccountRequest__Output as _switchboard_applications_v1_GetAccountRequest__Output } from './switchboard/applications/v1/GetAccountRequest';
import type { GetAccountResponse as _switchboard_applications_v1_GetAccountResponse, GetAccountResponse__Output as _switchboard_applications_v1_GetAccountResponse__Output } from './switchboard/applications/v1/GetAccountResponse';
import type { GetApplicationRequest as _switchboard_applications_v1_GetApplicationRequest, GetApplicationRequest__Output as _switchboard_applications_v1_GetApplicationRequest__Output } from './switchboard/applications/v1/GetApplicationRequest';
import type { GetApplicationResponse as _switchboard_applications_v1_GetApplicationResponse, GetApplicationResponse__Output as _switchboard_applications_v1_GetApplicationResponse__Output } from './switchboard/applications/v1/GetApplicationResponse';
import type { GetEnvironmentRequest as _switchboard_applications_v1_GetEnvironmentRequest, GetEnvironmentRequest__Output as _switchboard_applications_v1_GetEnvironmentRequest__Output } from './switchboard/applications/v1/GetEnvironmentRequest';
import type { GetEnvironmentResponse as _switchboard_applications_v1_GetEnvironmentResponse, GetEnvironmentResponse__Output as _switchboard_applications_v1_GetEnvironmentResponse__Output } from './switchboard/applications/v1/GetEnvironmentResponse';
import type { ListApplicationsRequest as _switchboard_applications_v1_ListApplicationsRequest, ListApplicationsRequest__Output as _switchboard_applications_v1_ListApplicationsRequest__Output } from './switchboard/applications/v1/ListApplicationsRequest';
import type { ListApplicationsResponse as _switchboard_applications_v1_ListApplicationsResponse, ListApplicationsResponse__Output as _switchboard_applications_v1_ListApplicationsResponse__Output } from './switchboard/applications/v1/ListApplicationsResponse';
import type { LookupApplicationRequest as _switchboard_applications_v1_LookupApplicationRequest, LookupApplicationRequest__Output as _switchboard_applications_v1_LookupApplicationRequest__Output } from './switchboard/applications/v1/LookupApplicationRequest';
import type { LookupApplicationResponse as _switchboard_applications_v1_LookupApplicationResponse, LookupApplicationResponse__Output as _switchboard_applications_v1_LookupApplicationResponse__Output } from './switchboard/applications/v1/LookupApplicationResponse';
import type { UpdateApplicationRequest as _switchboard_applications_v1_UpdateApplicationRequest, UpdateApplicationRequest__Output as _switchboard_applications_v1_UpdateApplicationRequest__Output } from './switchboard/applications/v1/UpdateApplicationRequest';
import type { UpdateApplicationResponse as _switchboard_applications_v1_UpdateApplicationResponse, UpdateApplicationResponse__Output as _switchboard_applications_v1_UpdateApplicationResponse__Output } from './switchboard/applications/v1/UpdateApplicationResponse';
import type { VerifyCredentialsRequest as _switchboard_applications_v1_VerifyCredentialsRequest, VerifyCredentialsRequest__Output as _switchboard_applications_v1_VerifyCredentialsRequest__Output } from './switchboard/applications/v1/VerifyCredentialsRequest';
import type { VerifyCredentialsResponse as _switchboard_applications_v1_VerifyCredentialsResponse, VerifyCredentialsResponse__Output as _switchboard_applications_v1_VerifyCredentialsResponse__Output } from './switchboard/applications/v1/VerifyCredentialsResponse';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  switchboard: {
    applications: {
      v1: {
        Account: MessageTypeDefinition<_switchboard_applications_v1_Account, _switchboard_applications_v1_Account__Output>
        AccountsService: SubtypeConstructor<typeof grpc.Client, _switchboard_applications_v1_AccountsServiceClient> & { service: _switchboard_applications_v1_AccountsServiceDefinition }
        Application: MessageTypeDefinition<_switchboard_applications_v1_Application, _switchboard_applications_v1_Application__Output>
        ApplicationsService: SubtypeConstructor<typeof grpc.Client, _switchboard_applications_v1_ApplicationsServiceClient> & { service: _switchboard_applications_v1_ApplicationsServiceDefinition }
        CreateApplicationRequest: MessageTypeDefinition<_switchboard_applications_v1_CreateApplicationRequest, _switchboard_applications_v1_CreateApplicationRequest__Output>
        CreateApplicationResponse: MessageTypeDefinition<_switchboard_applications_v1_CreateApplicationResponse, _switchboard_applications_v1_CreateApplicationResponse__Output>
        DeleteApplicationRequest: MessageTypeDefinition<_switchboard_applications_v1_DeleteApplicationRequest, _switchboard_applications_v1_DeleteApplicationRequest__Output>
        DeleteApplicationResponse: MessageTypeDefinition<_switchboard_applications_v1_DeleteApplicationResponse, _switchboard_applications_v1_DeleteApplicationResponse__Output>
        Environment: MessageTypeDefinition<_switchboard_applications_v1_Environment, _switchboard_applications_v1_Environment__Output>
        GetAccountRequest: MessageTypeDefinition<_switchboard_applications_v1_GetAccountRequest, _switchboard_applications_v1_GetAccountRequest__Output>
        GetAccountResponse: MessageTypeDefinition<_switchboard_applications_v1_GetAccountResponse, _switchboard_applications_v1_GetAccountResponse__Output>
        GetApplicationRequest: MessageTypeDefinition<_switchboard_applications_v1_GetApplicationRequest, _switchboard_applications_v1_GetApplicationRequest__Output>
        GetApplicationResponse: MessageTypeDefinition<_switchboard_applications_v1_GetApplicationResponse, _switchboard_applications_v1_GetApplicationResponse__Output>
        GetEnvironmentRequest: MessageTypeDefinition<_switchboard_applications_v1_GetEnvironmentRequest, _switchboard_applications_v1_GetEnvironmentRequest__Output>
        GetEnvironmentResponse: MessageTypeDefinition<_switchboard_applications_v1_GetEnvironmentResponse, _switchboard_applications_v1_GetEnvironmentResponse__Output>
        ListApplicationsRequest: MessageTypeDefinition<_switchboard_applications_v1_ListApplicationsRequest, _switchboard_applications_v1_ListApplicationsRequest__Output>
        ListApplicationsResponse: MessageTypeDefinition<_switchboard_applications_v1_ListApplicationsResponse, _switchboard_applications_v1_ListApplicationsResponse__Output>
        LookupApplicationRequest: MessageTypeDefinition<_switchboard_applications_v1_LookupApplicationRequest, _switchboard_applications_v1_LookupApplicationRequest__Output>
        LookupApplicationResponse: MessageTypeDefinition<_switchboard_applications_v1_LookupApplicationResponse, _switchboard_applications_v1_LookupApplicationResponse__Output>
        UpdateApplicationRequest: MessageTypeDefinition<_switchboard_applications_v1_UpdateApplicationRequest, _switchboard_applications_v1_UpdateApplicationRequest__Output>
        UpdateApplicationResponse: MessageTypeDefinition<_switchboard_applications_v1_UpdateApplicationResponse, _switchboard_applications_v1_UpdateApplicationResponse__Output>
        VerifyCredentialsRequest: MessageTypeDefinition<_switchboard_applications_v1_VerifyCredentialsRequest, _switchboard_applications_v1_VerifyCredentialsRequest__Output>
        VerifyCredentialsResponse: MessageTypeDefinition<_switchboard_applications_v1_VerifyCredentialsResponse, _switchboard_applications_v1_VerifyCredentialsResponse__Output>
      }
    }
  }
}

