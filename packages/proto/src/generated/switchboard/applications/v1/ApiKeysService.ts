// Original file: proto/switchboard/applications/v1/applications.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { CreateApiKeyRequest as _switchboard_applications_v1_CreateApiKeyRequest, CreateApiKeyRequest__Output as _switchboard_applications_v1_CreateApiKeyRequest__Output } from '../../../switchboard/applications/v1/CreateApiKeyRequest.ts';
import type { CreateApiKeyResponse as _switchboard_applications_v1_CreateApiKeyResponse, CreateApiKeyResponse__Output as _switchboard_applications_v1_CreateApiKeyResponse__Output } from '../../../switchboard/applications/v1/CreateApiKeyResponse.ts';
import type { GetApiKeyRequest as _switchboard_applications_v1_GetApiKeyRequest, GetApiKeyRequest__Output as _switchboard_applications_v1_GetApiKeyRequest__Output } from '../../../switchboard/applications/v1/GetApiKeyRequest.ts';
import type { GetApiKeyResponse as _switchboard_applications_v1_GetApiKeyResponse, GetApiKeyResponse__Output as _switchboard_applications_v1_GetApiKeyResponse__Output } from '../../../switchboard/applications/v1/GetApiKeyResponse.ts';
import type { ListApiKeysRequest as _switchboard_applications_v1_ListApiKeysRequest, ListApiKeysRequest__Output as _switchboard_applications_v1_ListApiKeysRequest__Output } from '../../../switchboard/applications/v1/ListApiKeysRequest.ts';
import type { ListApiKeysResponse as _switchboard_applications_v1_ListApiKeysResponse, ListApiKeysResponse__Output as _switchboard_applications_v1_ListApiKeysResponse__Output } from '../../../switchboard/applications/v1/ListApiKeysResponse.ts';
import type { RevokeApiKeyRequest as _switchboard_applications_v1_RevokeApiKeyRequest, RevokeApiKeyRequest__Output as _switchboard_applications_v1_RevokeApiKeyRequest__Output } from '../../../switchboard/applications/v1/RevokeApiKeyRequest.ts';
import type { RevokeApiKeyResponse as _switchboard_applications_v1_RevokeApiKeyResponse, RevokeApiKeyResponse__Output as _switchboard_applications_v1_RevokeApiKeyResponse__Output } from '../../../switchboard/applications/v1/RevokeApiKeyResponse.ts';
import type { VerifyApiKeyRequest as _switchboard_applications_v1_VerifyApiKeyRequest, VerifyApiKeyRequest__Output as _switchboard_applications_v1_VerifyApiKeyRequest__Output } from '../../../switchboard/applications/v1/VerifyApiKeyRequest.ts';
import type { VerifyApiKeyResponse as _switchboard_applications_v1_VerifyApiKeyResponse, VerifyApiKeyResponse__Output as _switchboard_applications_v1_VerifyApiKeyResponse__Output } from '../../../switchboard/applications/v1/VerifyApiKeyResponse.ts';

export interface ApiKeysServiceClient extends grpc.Client {
  CreateApiKey(argument: _switchboard_applications_v1_CreateApiKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_CreateApiKeyResponse__Output>): grpc.ClientUnaryCall;
  CreateApiKey(argument: _switchboard_applications_v1_CreateApiKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_CreateApiKeyResponse__Output>): grpc.ClientUnaryCall;
  CreateApiKey(argument: _switchboard_applications_v1_CreateApiKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_CreateApiKeyResponse__Output>): grpc.ClientUnaryCall;
  CreateApiKey(argument: _switchboard_applications_v1_CreateApiKeyRequest, callback: grpc.requestCallback<_switchboard_applications_v1_CreateApiKeyResponse__Output>): grpc.ClientUnaryCall;
  createApiKey(argument: _switchboard_applications_v1_CreateApiKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_CreateApiKeyResponse__Output>): grpc.ClientUnaryCall;
  createApiKey(argument: _switchboard_applications_v1_CreateApiKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_CreateApiKeyResponse__Output>): grpc.ClientUnaryCall;
  createApiKey(argument: _switchboard_applications_v1_CreateApiKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_CreateApiKeyResponse__Output>): grpc.ClientUnaryCall;
  createApiKey(argument: _switchboard_applications_v1_CreateApiKeyRequest, callback: grpc.requestCallback<_switchboard_applications_v1_CreateApiKeyResponse__Output>): grpc.ClientUnaryCall;
  
  GetApiKey(argument: _switchboard_applications_v1_GetApiKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_GetApiKeyResponse__Output>): grpc.ClientUnaryCall;
  GetApiKey(argument: _switchboard_applications_v1_GetApiKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_GetApiKeyResponse__Output>): grpc.ClientUnaryCall;
  GetApiKey(argument: _switchboard_applications_v1_GetApiKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_GetApiKeyResponse__Output>): grpc.ClientUnaryCall;
  GetApiKey(argument: _switchboard_applications_v1_GetApiKeyRequest, callback: grpc.requestCallback<_switchboard_applications_v1_GetApiKeyResponse__Output>): grpc.ClientUnaryCall;
  getApiKey(argument: _switchboard_applications_v1_GetApiKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_GetApiKeyResponse__Output>): grpc.ClientUnaryCall;
  getApiKey(argument: _switchboard_applications_v1_GetApiKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_GetApiKeyResponse__Output>): grpc.ClientUnaryCall;
  getApiKey(argument: _switchboard_applications_v1_GetApiKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_GetApiKeyResponse__Output>): grpc.ClientUnaryCall;
  getApiKey(argument: _switchboard_applications_v1_GetApiKeyRequest, callback: grpc.requestCallback<_switchboard_applications_v1_GetApiKeyResponse__Output>): grpc.ClientUnaryCall;
  
  ListApiKeys(argument: _switchboard_applications_v1_ListApiKeysRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ListApiKeysResponse__Output>): grpc.ClientUnaryCall;
  ListApiKeys(argument: _switchboard_applications_v1_ListApiKeysRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_ListApiKeysResponse__Output>): grpc.ClientUnaryCall;
  ListApiKeys(argument: _switchboard_applications_v1_ListApiKeysRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ListApiKeysResponse__Output>): grpc.ClientUnaryCall;
  ListApiKeys(argument: _switchboard_applications_v1_ListApiKeysRequest, callback: grpc.requestCallback<_switchboard_applications_v1_ListApiKeysResponse__Output>): grpc.ClientUnaryCall;
  listApiKeys(argument: _switchboard_applications_v1_ListApiKeysRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ListApiKeysResponse__Output>): grpc.ClientUnaryCall;
  listApiKeys(argument: _switchboard_applications_v1_ListApiKeysRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_ListApiKeysResponse__Output>): grpc.ClientUnaryCall;
  listApiKeys(argument: _switchboard_applications_v1_ListApiKeysRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ListApiKeysResponse__Output>): grpc.ClientUnaryCall;
  listApiKeys(argument: _switchboard_applications_v1_ListApiKeysRequest, callback: grpc.requestCallback<_switchboard_applications_v1_ListApiKeysResponse__Output>): grpc.ClientUnaryCall;
  
  RevokeApiKey(argument: _switchboard_applications_v1_RevokeApiKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_RevokeApiKeyResponse__Output>): grpc.ClientUnaryCall;
  RevokeApiKey(argument: _switchboard_applications_v1_RevokeApiKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_RevokeApiKeyResponse__Output>): grpc.ClientUnaryCall;
  RevokeApiKey(argument: _switchboard_applications_v1_RevokeApiKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_RevokeApiKeyResponse__Output>): grpc.ClientUnaryCall;
  RevokeApiKey(argument: _switchboard_applications_v1_RevokeApiKeyRequest, callback: grpc.requestCallback<_switchboard_applications_v1_RevokeApiKeyResponse__Output>): grpc.ClientUnaryCall;
  revokeApiKey(argument: _switchboard_applications_v1_RevokeApiKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_RevokeApiKeyResponse__Output>): grpc.ClientUnaryCall;
  revokeApiKey(argument: _switchboard_applications_v1_RevokeApiKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_RevokeApiKeyResponse__Output>): grpc.ClientUnaryCall;
  revokeApiKey(argument: _switchboard_applications_v1_RevokeApiKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_RevokeApiKeyResponse__Output>): grpc.ClientUnaryCall;
  revokeApiKey(argument: _switchboard_applications_v1_RevokeApiKeyRequest, callback: grpc.requestCallback<_switchboard_applications_v1_RevokeApiKeyResponse__Output>): grpc.ClientUnaryCall;
  
  VerifyApiKey(argument: _switchboard_applications_v1_VerifyApiKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_VerifyApiKeyResponse__Output>): grpc.ClientUnaryCall;
  VerifyApiKey(argument: _switchboard_applications_v1_VerifyApiKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_VerifyApiKeyResponse__Output>): grpc.ClientUnaryCall;
  VerifyApiKey(argument: _switchboard_applications_v1_VerifyApiKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_VerifyApiKeyResponse__Output>): grpc.ClientUnaryCall;
  VerifyApiKey(argument: _switchboard_applications_v1_VerifyApiKeyRequest, callback: grpc.requestCallback<_switchboard_applications_v1_VerifyApiKeyResponse__Output>): grpc.ClientUnaryCall;
  verifyApiKey(argument: _switchboard_applications_v1_VerifyApiKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_VerifyApiKeyResponse__Output>): grpc.ClientUnaryCall;
  verifyApiKey(argument: _switchboard_applications_v1_VerifyApiKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_VerifyApiKeyResponse__Output>): grpc.ClientUnaryCall;
  verifyApiKey(argument: _switchboard_applications_v1_VerifyApiKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_VerifyApiKeyResponse__Output>): grpc.ClientUnaryCall;
  verifyApiKey(argument: _switchboard_applications_v1_VerifyApiKeyRequest, callback: grpc.requestCallback<_switchboard_applications_v1_VerifyApiKeyResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface ApiKeysServiceHandlers extends grpc.UntypedServiceImplementation {
  CreateApiKey: grpc.handleUnaryCall<_switchboard_applications_v1_CreateApiKeyRequest__Output, _switchboard_applications_v1_CreateApiKeyResponse>;
  
  GetApiKey: grpc.handleUnaryCall<_switchboard_applications_v1_GetApiKeyRequest__Output, _switchboard_applications_v1_GetApiKeyResponse>;
  
  ListApiKeys: grpc.handleUnaryCall<_switchboard_applications_v1_ListApiKeysRequest__Output, _switchboard_applications_v1_ListApiKeysResponse>;
  
  RevokeApiKey: grpc.handleUnaryCall<_switchboard_applications_v1_RevokeApiKeyRequest__Output, _switchboard_applications_v1_RevokeApiKeyResponse>;
  
  VerifyApiKey: grpc.handleUnaryCall<_switchboard_applications_v1_VerifyApiKeyRequest__Output, _switchboard_applications_v1_VerifyApiKeyResponse>;
  
}

export interface ApiKeysServiceDefinition extends grpc.ServiceDefinition {
  CreateApiKey: MethodDefinition<_switchboard_applications_v1_CreateApiKeyRequest, _switchboard_applications_v1_CreateApiKeyResponse, _switchboard_applications_v1_CreateApiKeyRequest__Output, _switchboard_applications_v1_CreateApiKeyResponse__Output>
  GetApiKey: MethodDefinition<_switchboard_applications_v1_GetApiKeyRequest, _switchboard_applications_v1_GetApiKeyResponse, _switchboard_applications_v1_GetApiKeyRequest__Output, _switchboard_applications_v1_GetApiKeyResponse__Output>
  ListApiKeys: MethodDefinition<_switchboard_applications_v1_ListApiKeysRequest, _switchboard_applications_v1_ListApiKeysResponse, _switchboard_applications_v1_ListApiKeysRequest__Output, _switchboard_applications_v1_ListApiKeysResponse__Output>
  RevokeApiKey: MethodDefinition<_switchboard_applications_v1_RevokeApiKeyRequest, _switchboard_applications_v1_RevokeApiKeyResponse, _switchboard_applications_v1_RevokeApiKeyRequest__Output, _switchboard_applications_v1_RevokeApiKeyResponse__Output>
  VerifyApiKey: MethodDefinition<_switchboard_applications_v1_VerifyApiKeyRequest, _switchboard_applications_v1_VerifyApiKeyResponse, _switchboard_applications_v1_VerifyApiKeyRequest__Output, _switchboard_applications_v1_VerifyApiKeyResponse__Output>
}
