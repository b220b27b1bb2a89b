// Original file: proto/switchboard/applications/v1/applications.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ChangePasswordRequest as _switchboard_applications_v1_ChangePasswordRequest, ChangePasswordRequest__Output as _switchboard_applications_v1_ChangePasswordRequest__Output } from '../../../switchboard/applications/v1/ChangePasswordRequest.ts';
import type { ChangePasswordResponse as _switchboard_applications_v1_ChangePasswordResponse, ChangePasswordResponse__Output as _switchboard_applications_v1_ChangePasswordResponse__Output } from '../../../switchboard/applications/v1/ChangePasswordResponse.ts';
import type { GetAccountRequest as _switchboard_applications_v1_GetAccountRequest, GetAccountRequest__Output as _switchboard_applications_v1_GetAccountRequest__Output } from '../../../switchboard/applications/v1/GetAccountRequest.ts';
import type { GetAccountResponse as _switchboard_applications_v1_GetAccountResponse, GetAccountResponse__Output as _switchboard_applications_v1_GetAccountResponse__Output } from '../../../switchboard/applications/v1/GetAccountResponse.ts';
import type { VerifyCredentialsRequest as _switchboard_applications_v1_VerifyCredentialsRequest, VerifyCredentialsRequest__Output as _switchboard_applications_v1_VerifyCredentialsRequest__Output } from '../../../switchboard/applications/v1/VerifyCredentialsRequest.ts';
import type { VerifyCredentialsResponse as _switchboard_applications_v1_VerifyCredentialsResponse, VerifyCredentialsResponse__Output as _switchboard_applications_v1_VerifyCredentialsResponse__Output } from '../../../switchboard/applications/v1/VerifyCredentialsResponse.ts';

export interface AccountsServiceClient extends grpc.Client {
  ChangePassword(argument: _switchboard_applications_v1_ChangePasswordRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ChangePasswordResponse__Output>): grpc.ClientUnaryCall;
  ChangePassword(argument: _switchboard_applications_v1_ChangePasswordRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_ChangePasswordResponse__Output>): grpc.ClientUnaryCall;
  ChangePassword(argument: _switchboard_applications_v1_ChangePasswordRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ChangePasswordResponse__Output>): grpc.ClientUnaryCall;
  ChangePassword(argument: _switchboard_applications_v1_ChangePasswordRequest, callback: grpc.requestCallback<_switchboard_applications_v1_ChangePasswordResponse__Output>): grpc.ClientUnaryCall;
  changePassword(argument: _switchboard_applications_v1_ChangePasswordRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ChangePasswordResponse__Output>): grpc.ClientUnaryCall;
  changePassword(argument: _switchboard_applications_v1_ChangePasswordRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_ChangePasswordResponse__Output>): grpc.ClientUnaryCall;
  changePassword(argument: _switchboard_applications_v1_ChangePasswordRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ChangePasswordResponse__Output>): grpc.ClientUnaryCall;
  changePassword(argument: _switchboard_applications_v1_ChangePasswordRequest, callback: grpc.requestCallback<_switchboard_applications_v1_ChangePasswordResponse__Output>): grpc.ClientUnaryCall;
  
  GetAccount(argument: _switchboard_applications_v1_GetAccountRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_GetAccountResponse__Output>): grpc.ClientUnaryCall;
  GetAccount(argument: _switchboard_applications_v1_GetAccountRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_GetAccountResponse__Output>): grpc.ClientUnaryCall;
  GetAccount(argument: _switchboard_applications_v1_GetAccountRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_GetAccountResponse__Output>): grpc.ClientUnaryCall;
  GetAccount(argument: _switchboard_applications_v1_GetAccountRequest, callback: grpc.requestCallback<_switchboard_applications_v1_GetAccountResponse__Output>): grpc.ClientUnaryCall;
  getAccount(argument: _switchboard_applications_v1_GetAccountRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_GetAccountResponse__Output>): grpc.ClientUnaryCall;
  getAccount(argument: _switchboard_applications_v1_GetAccountRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_GetAccountResponse__Output>): grpc.ClientUnaryCall;
  getAccount(argument: _switchboard_applications_v1_GetAccountRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_GetAccountResponse__Output>): grpc.ClientUnaryCall;
  getAccount(argument: _switchboard_applications_v1_GetAccountRequest, callback: grpc.requestCallback<_switchboard_applications_v1_GetAccountResponse__Output>): grpc.ClientUnaryCall;
  
  VerifyCredentials(argument: _switchboard_applications_v1_VerifyCredentialsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_VerifyCredentialsResponse__Output>): grpc.ClientUnaryCall;
  VerifyCredentials(argument: _switchboard_applications_v1_VerifyCredentialsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_VerifyCredentialsResponse__Output>): grpc.ClientUnaryCall;
  VerifyCredentials(argument: _switchboard_applications_v1_VerifyCredentialsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_VerifyCredentialsResponse__Output>): grpc.ClientUnaryCall;
  VerifyCredentials(argument: _switchboard_applications_v1_VerifyCredentialsRequest, callback: grpc.requestCallback<_switchboard_applications_v1_VerifyCredentialsResponse__Output>): grpc.ClientUnaryCall;
  verifyCredentials(argument: _switchboard_applications_v1_VerifyCredentialsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_VerifyCredentialsResponse__Output>): grpc.ClientUnaryCall;
  verifyCredentials(argument: _switchboard_applications_v1_VerifyCredentialsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_VerifyCredentialsResponse__Output>): grpc.ClientUnaryCall;
  verifyCredentials(argument: _switchboard_applications_v1_VerifyCredentialsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_VerifyCredentialsResponse__Output>): grpc.ClientUnaryCall;
  verifyCredentials(argument: _switchboard_applications_v1_VerifyCredentialsRequest, callback: grpc.requestCallback<_switchboard_applications_v1_VerifyCredentialsResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface AccountsServiceHandlers extends grpc.UntypedServiceImplementation {
  ChangePassword: grpc.handleUnaryCall<_switchboard_applications_v1_ChangePasswordRequest__Output, _switchboard_applications_v1_ChangePasswordResponse>;
  
  GetAccount: grpc.handleUnaryCall<_switchboard_applications_v1_GetAccountRequest__Output, _switchboard_applications_v1_GetAccountResponse>;
  
  VerifyCredentials: grpc.handleUnaryCall<_switchboard_applications_v1_VerifyCredentialsRequest__Output, _switchboard_applications_v1_VerifyCredentialsResponse>;
  
}

export interface AccountsServiceDefinition extends grpc.ServiceDefinition {
  ChangePassword: MethodDefinition<_switchboard_applications_v1_ChangePasswordRequest, _switchboard_applications_v1_ChangePasswordResponse, _switchboard_applications_v1_ChangePasswordRequest__Output, _switchboard_applications_v1_ChangePasswordResponse__Output>
  GetAccount: MethodDefinition<_switchboard_applications_v1_GetAccountRequest, _switchboard_applications_v1_GetAccountResponse, _switchboard_applications_v1_GetAccountRequest__Output, _switchboard_applications_v1_GetAccountResponse__Output>
  VerifyCredentials: MethodDefinition<_switchboard_applications_v1_VerifyCredentialsRequest, _switchboard_applications_v1_VerifyCredentialsResponse, _switchboard_applications_v1_VerifyCredentialsRequest__Output, _switchboard_applications_v1_VerifyCredentialsResponse__Output>
}
