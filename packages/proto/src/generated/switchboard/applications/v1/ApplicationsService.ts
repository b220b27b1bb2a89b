// Original file: proto/switchboard/applications/v1/applications.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { CreateApplicationRequest as _switchboard_applications_v1_CreateApplicationRequest, CreateApplicationRequest__Output as _switchboard_applications_v1_CreateApplicationRequest__Output } from '../../../switchboard/applications/v1/CreateApplicationRequest';
import type { CreateApplicationResponse as _switchboard_applications_v1_CreateApplicationResponse, CreateApplicationResponse__Output as _switchboard_applications_v1_CreateApplicationResponse__Output } from '../../../switchboard/applications/v1/CreateApplicationResponse';
import type { DeleteApplicationRequest as _switchboard_applications_v1_DeleteApplicationRequest, DeleteApplicationRequest__Output as _switchboard_applications_v1_DeleteApplicationRequest__Output } from '../../../switchboard/applications/v1/DeleteApplicationRequest';
import type { DeleteApplicationResponse as _switchboard_applications_v1_DeleteApplicationResponse, DeleteApplicationResponse__Output as _switchboard_applications_v1_DeleteApplicationResponse__Output } from '../../../switchboard/applications/v1/DeleteApplicationResponse';
import type { GetApplicationRequest as _switchboard_applications_v1_GetApplicationRequest, GetApplicationRequest__Output as _switchboard_applications_v1_GetApplicationRequest__Output } from '../../../switchboard/applications/v1/GetApplicationRequest';
import type { GetApplicationResponse as _switchboard_applications_v1_GetApplicationResponse, GetApplicationResponse__Output as _switchboard_applications_v1_GetApplicationResponse__Output } from '../../../switchboard/applications/v1/GetApplicationResponse';
import type { GetEnvironmentRequest as _switchboard_applications_v1_GetEnvironmentRequest, GetEnvironmentRequest__Output as _switchboard_applications_v1_GetEnvironmentRequest__Output } from '../../../switchboard/applications/v1/GetEnvironmentRequest';
import type { GetEnvironmentResponse as _switchboard_applications_v1_GetEnvironmentResponse, GetEnvironmentResponse__Output as _switchboard_applications_v1_GetEnvironmentResponse__Output } from '../../../switchboard/applications/v1/GetEnvironmentResponse';
import type { ListApplicationsRequest as _switchboard_applications_v1_ListApplicationsRequest, ListApplicationsRequest__Output as _switchboard_applications_v1_ListApplicationsRequest__Output } from '../../../switchboard/applications/v1/ListApplicationsRequest';
import type { ListApplicationsResponse as _switchboard_applications_v1_ListApplicationsResponse, ListApplicationsResponse__Output as _switchboard_applications_v1_ListApplicationsResponse__Output } from '../../../switchboard/applications/v1/ListApplicationsResponse';
import type { LookupApplicationRequest as _switchboard_applications_v1_LookupApplicationRequest, LookupApplicationRequest__Output as _switchboard_applications_v1_LookupApplicationRequest__Output } from '../../../switchboard/applications/v1/LookupApplicationRequest';
import type { LookupApplicationResponse as _switchboard_applications_v1_LookupApplicationResponse, LookupApplicationResponse__Output as _switchboard_applications_v1_LookupApplicationResponse__Output } from '../../../switchboard/applications/v1/LookupApplicationResponse';
import type { UpdateApplicationRequest as _switchboard_applications_v1_UpdateApplicationRequest, UpdateApplicationRequest__Output as _switchboard_applications_v1_UpdateApplicationRequest__Output } from '../../../switchboard/applications/v1/UpdateApplicationRequest';
import type { UpdateApplicationResponse as _switchboard_applications_v1_UpdateApplicationResponse, UpdateApplicationResponse__Output as _switchboard_applications_v1_UpdateApplicationResponse__Output } from '../../../switchboard/applications/v1/UpdateApplicationResponse';

export interface ApplicationsServiceClient extends grpc.Client {
  CreateApplication(argument: _switchboard_applications_v1_CreateApplicationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_CreateApplicationResponse__Output>): grpc.ClientUnaryCall;
  CreateApplication(argument: _switchboard_applications_v1_CreateApplicationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_CreateApplicationResponse__Output>): grpc.ClientUnaryCall;
  CreateApplication(argument: _switchboard_applications_v1_CreateApplicationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_CreateApplicationResponse__Output>): grpc.ClientUnaryCall;
  CreateApplication(argument: _switchboard_applications_v1_CreateApplicationRequest, callback: grpc.requestCallback<_switchboard_applications_v1_CreateApplicationResponse__Output>): grpc.ClientUnaryCall;
  createApplication(argument: _switchboard_applications_v1_CreateApplicationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_CreateApplicationResponse__Output>): grpc.ClientUnaryCall;
  createApplication(argument: _switchboard_applications_v1_CreateApplicationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_CreateApplicationResponse__Output>): grpc.ClientUnaryCall;
  createApplication(argument: _switchboard_applications_v1_CreateApplicationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_CreateApplicationResponse__Output>): grpc.ClientUnaryCall;
  createApplication(argument: _switchboard_applications_v1_CreateApplicationRequest, callback: grpc.requestCallback<_switchboard_applications_v1_CreateApplicationResponse__Output>): grpc.ClientUnaryCall;
  
  DeleteApplication(argument: _switchboard_applications_v1_DeleteApplicationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_DeleteApplicationResponse__Output>): grpc.ClientUnaryCall;
  DeleteApplication(argument: _switchboard_applications_v1_DeleteApplicationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_DeleteApplicationResponse__Output>): grpc.ClientUnaryCall;
  DeleteApplication(argument: _switchboard_applications_v1_DeleteApplicationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_DeleteApplicationResponse__Output>): grpc.ClientUnaryCall;
  DeleteApplication(argument: _switchboard_applications_v1_DeleteApplicationRequest, callback: grpc.requestCallback<_switchboard_applications_v1_DeleteApplicationResponse__Output>): grpc.ClientUnaryCall;
  deleteApplication(argument: _switchboard_applications_v1_DeleteApplicationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_DeleteApplicationResponse__Output>): grpc.ClientUnaryCall;
  deleteApplication(argument: _switchboard_applications_v1_DeleteApplicationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_DeleteApplicationResponse__Output>): grpc.ClientUnaryCall;
  deleteApplication(argument: _switchboard_applications_v1_DeleteApplicationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_DeleteApplicationResponse__Output>): grpc.ClientUnaryCall;
  deleteApplication(argument: _switchboard_applications_v1_DeleteApplicationRequest, callback: grpc.requestCallback<_switchboard_applications_v1_DeleteApplicationResponse__Output>): grpc.ClientUnaryCall;
  
  GetApplication(argument: _switchboard_applications_v1_GetApplicationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_GetApplicationResponse__Output>): grpc.ClientUnaryCall;
  GetApplication(argument: _switchboard_applications_v1_GetApplicationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_GetApplicationResponse__Output>): grpc.ClientUnaryCall;
  GetApplication(argument: _switchboard_applications_v1_GetApplicationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_GetApplicationResponse__Output>): grpc.ClientUnaryCall;
  GetApplication(argument: _switchboard_applications_v1_GetApplicationRequest, callback: grpc.requestCallback<_switchboard_applications_v1_GetApplicationResponse__Output>): grpc.ClientUnaryCall;
  getApplication(argument: _switchboard_applications_v1_GetApplicationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_GetApplicationResponse__Output>): grpc.ClientUnaryCall;
  getApplication(argument: _switchboard_applications_v1_GetApplicationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_GetApplicationResponse__Output>): grpc.ClientUnaryCall;
  getApplication(argument: _switchboard_applications_v1_GetApplicationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_GetApplicationResponse__Output>): grpc.ClientUnaryCall;
  getApplication(argument: _switchboard_applications_v1_GetApplicationRequest, callback: grpc.requestCallback<_switchboard_applications_v1_GetApplicationResponse__Output>): grpc.ClientUnaryCall;
  
  GetEnvironment(argument: _switchboard_applications_v1_GetEnvironmentRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_GetEnvironmentResponse__Output>): grpc.ClientUnaryCall;
  GetEnvironment(argument: _switchboard_applications_v1_GetEnvironmentRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_GetEnvironmentResponse__Output>): grpc.ClientUnaryCall;
  GetEnvironment(argument: _switchboard_applications_v1_GetEnvironmentRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_GetEnvironmentResponse__Output>): grpc.ClientUnaryCall;
  GetEnvironment(argument: _switchboard_applications_v1_GetEnvironmentRequest, callback: grpc.requestCallback<_switchboard_applications_v1_GetEnvironmentResponse__Output>): grpc.ClientUnaryCall;
  getEnvironment(argument: _switchboard_applications_v1_GetEnvironmentRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_GetEnvironmentResponse__Output>): grpc.ClientUnaryCall;
  getEnvironment(argument: _switchboard_applications_v1_GetEnvironmentRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_GetEnvironmentResponse__Output>): grpc.ClientUnaryCall;
  getEnvironment(argument: _switchboard_applications_v1_GetEnvironmentRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_GetEnvironmentResponse__Output>): grpc.ClientUnaryCall;
  getEnvironment(argument: _switchboard_applications_v1_GetEnvironmentRequest, callback: grpc.requestCallback<_switchboard_applications_v1_GetEnvironmentResponse__Output>): grpc.ClientUnaryCall;
  
  ListApplications(argument: _switchboard_applications_v1_ListApplicationsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ListApplicationsResponse__Output>): grpc.ClientUnaryCall;
  ListApplications(argument: _switchboard_applications_v1_ListApplicationsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_ListApplicationsResponse__Output>): grpc.ClientUnaryCall;
  ListApplications(argument: _switchboard_applications_v1_ListApplicationsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ListApplicationsResponse__Output>): grpc.ClientUnaryCall;
  ListApplications(argument: _switchboard_applications_v1_ListApplicationsRequest, callback: grpc.requestCallback<_switchboard_applications_v1_ListApplicationsResponse__Output>): grpc.ClientUnaryCall;
  listApplications(argument: _switchboard_applications_v1_ListApplicationsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ListApplicationsResponse__Output>): grpc.ClientUnaryCall;
  listApplications(argument: _switchboard_applications_v1_ListApplicationsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_ListApplicationsResponse__Output>): grpc.ClientUnaryCall;
  listApplications(argument: _switchboard_applications_v1_ListApplicationsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ListApplicationsResponse__Output>): grpc.ClientUnaryCall;
  listApplications(argument: _switchboard_applications_v1_ListApplicationsRequest, callback: grpc.requestCallback<_switchboard_applications_v1_ListApplicationsResponse__Output>): grpc.ClientUnaryCall;
  
  LookupApplication(argument: _switchboard_applications_v1_LookupApplicationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_LookupApplicationResponse__Output>): grpc.ClientUnaryCall;
  LookupApplication(argument: _switchboard_applications_v1_LookupApplicationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_LookupApplicationResponse__Output>): grpc.ClientUnaryCall;
  LookupApplication(argument: _switchboard_applications_v1_LookupApplicationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_LookupApplicationResponse__Output>): grpc.ClientUnaryCall;
  LookupApplication(argument: _switchboard_applications_v1_LookupApplicationRequest, callback: grpc.requestCallback<_switchboard_applications_v1_LookupApplicationResponse__Output>): grpc.ClientUnaryCall;
  lookupApplication(argument: _switchboard_applications_v1_LookupApplicationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_LookupApplicationResponse__Output>): grpc.ClientUnaryCall;
  lookupApplication(argument: _switchboard_applications_v1_LookupApplicationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_LookupApplicationResponse__Output>): grpc.ClientUnaryCall;
  lookupApplication(argument: _switchboard_applications_v1_LookupApplicationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_LookupApplicationResponse__Output>): grpc.ClientUnaryCall;
  lookupApplication(argument: _switchboard_applications_v1_LookupApplicationRequest, callback: grpc.requestCallback<_switchboard_applications_v1_LookupApplicationResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateApplication(argument: _switchboard_applications_v1_UpdateApplicationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_UpdateApplicationResponse__Output>): grpc.ClientUnaryCall;
  UpdateApplication(argument: _switchboard_applications_v1_UpdateApplicationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_UpdateApplicationResponse__Output>): grpc.ClientUnaryCall;
  UpdateApplication(argument: _switchboard_applications_v1_UpdateApplicationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_UpdateApplicationResponse__Output>): grpc.ClientUnaryCall;
  UpdateApplication(argument: _switchboard_applications_v1_UpdateApplicationRequest, callback: grpc.requestCallback<_switchboard_applications_v1_UpdateApplicationResponse__Output>): grpc.ClientUnaryCall;
  updateApplication(argument: _switchboard_applications_v1_UpdateApplicationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_UpdateApplicationResponse__Output>): grpc.ClientUnaryCall;
  updateApplication(argument: _switchboard_applications_v1_UpdateApplicationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_UpdateApplicationResponse__Output>): grpc.ClientUnaryCall;
  updateApplication(argument: _switchboard_applications_v1_UpdateApplicationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_UpdateApplicationResponse__Output>): grpc.ClientUnaryCall;
  updateApplication(argument: _switchboard_applications_v1_UpdateApplicationRequest, callback: grpc.requestCallback<_switchboard_applications_v1_UpdateApplicationResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface ApplicationsServiceHandlers extends grpc.UntypedServiceImplementation {
  CreateApplication: grpc.handleUnaryCall<_switchboard_applications_v1_CreateApplicationRequest__Output, _switchboard_applications_v1_CreateApplicationResponse>;
  
  DeleteApplication: grpc.handleUnaryCall<_switchboard_applications_v1_DeleteApplicationRequest__Output, _switchboard_applications_v1_DeleteApplicationResponse>;
  
  GetApplication: grpc.handleUnaryCall<_switchboard_applications_v1_GetApplicationRequest__Output, _switchboard_applications_v1_GetApplicationResponse>;
  
  GetEnvironment: grpc.handleUnaryCall<_switchboard_applications_v1_GetEnvironmentRequest__Output, _switchboard_applications_v1_GetEnvironmentResponse>;
  
  ListApplications: grpc.handleUnaryCall<_switchboard_applications_v1_ListApplicationsRequest__Output, _switchboard_applications_v1_ListApplicationsResponse>;
  
  LookupApplication: grpc.handleUnaryCall<_switchboard_applications_v1_LookupApplicationRequest__Output, _switchboard_applications_v1_LookupApplicationResponse>;
  
  UpdateApplication: grpc.handleUnaryCall<_switchboard_applications_v1_UpdateApplicationRequest__Output, _switchboard_applications_v1_UpdateApplicationResponse>;
  
}

export interface ApplicationsServiceDefinition extends grpc.ServiceDefinition {
  CreateApplication: MethodDefinition<_switchboard_applications_v1_CreateApplicationRequest, _switchboard_applications_v1_CreateApplicationResponse, _switchboard_applications_v1_CreateApplicationRequest__Output, _switchboard_applications_v1_CreateApplicationResponse__Output>
  DeleteApplication: MethodDefinition<_switchboard_applications_v1_DeleteApplicationRequest, _switchboard_applications_v1_DeleteApplicationResponse, _switchboard_applications_v1_DeleteApplicationRequest__Output, _switchboard_applications_v1_DeleteApplicationResponse__Output>
  GetApplication: MethodDefinition<_switchboard_applications_v1_GetApplicationRequest, _switchboard_applications_v1_GetApplicationResponse, _switchboard_applications_v1_GetApplicationRequest__Output, _switchboard_applications_v1_GetApplicationResponse__Output>
  GetEnvironment: MethodDefinition<_switchboard_applications_v1_GetEnvironmentRequest, _switchboard_applications_v1_GetEnvironmentResponse, _switchboard_applications_v1_GetEnvironmentRequest__Output, _switchboard_applications_v1_GetEnvironmentResponse__Output>
  ListApplications: MethodDefinition<_switchboard_applications_v1_ListApplicationsRequest, _switchboard_applications_v1_ListApplicationsResponse, _switchboard_applications_v1_ListApplicationsRequest__Output, _switchboard_applications_v1_ListApplicationsResponse__Output>
  LookupApplication: MethodDefinition<_switchboard_applications_v1_LookupApplicationRequest, _switchboard_applications_v1_LookupApplicationResponse, _switchboard_applications_v1_LookupApplicationRequest__Output, _switchboard_applications_v1_LookupApplicationResponse__Output>
  UpdateApplication: MethodDefinition<_switchboard_applications_v1_UpdateApplicationRequest, _switchboard_applications_v1_UpdateApplicationResponse, _switchboard_applications_v1_UpdateApplicationRequest__Output, _switchboard_applications_v1_UpdateApplicationResponse__Output>
}
