// Original file: proto/switchboard/applications/v1/applications.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ClaimAddressRequest as _switchboard_applications_v1_ClaimAddressRequest, ClaimAddressRequest__Output as _switchboard_applications_v1_ClaimAddressRequest__Output } from '../../../switchboard/applications/v1/ClaimAddressRequest.ts';
import type { ClaimAddressResponse as _switchboard_applications_v1_ClaimAddressResponse, ClaimAddressResponse__Output as _switchboard_applications_v1_ClaimAddressResponse__Output } from '../../../switchboard/applications/v1/ClaimAddressResponse.ts';
import type { GetAddressRequest as _switchboard_applications_v1_GetAddressRequest, GetAddressRequest__Output as _switchboard_applications_v1_GetAddressRequest__Output } from '../../../switchboard/applications/v1/GetAddressRequest.ts';
import type { GetAddressResponse as _switchboard_applications_v1_GetAddressResponse, GetAddressResponse__Output as _switchboard_applications_v1_GetAddressResponse__Output } from '../../../switchboard/applications/v1/GetAddressResponse.ts';
import type { ListAddressesRequest as _switchboard_applications_v1_ListAddressesRequest, ListAddressesRequest__Output as _switchboard_applications_v1_ListAddressesRequest__Output } from '../../../switchboard/applications/v1/ListAddressesRequest.ts';
import type { ListAddressesResponse as _switchboard_applications_v1_ListAddressesResponse, ListAddressesResponse__Output as _switchboard_applications_v1_ListAddressesResponse__Output } from '../../../switchboard/applications/v1/ListAddressesResponse.ts';
import type { ListAvailableNumbersRequest as _switchboard_applications_v1_ListAvailableNumbersRequest, ListAvailableNumbersRequest__Output as _switchboard_applications_v1_ListAvailableNumbersRequest__Output } from '../../../switchboard/applications/v1/ListAvailableNumbersRequest.ts';
import type { ListAvailableNumbersResponse as _switchboard_applications_v1_ListAvailableNumbersResponse, ListAvailableNumbersResponse__Output as _switchboard_applications_v1_ListAvailableNumbersResponse__Output } from '../../../switchboard/applications/v1/ListAvailableNumbersResponse.ts';
import type { ListExchangesRequest as _switchboard_applications_v1_ListExchangesRequest, ListExchangesRequest__Output as _switchboard_applications_v1_ListExchangesRequest__Output } from '../../../switchboard/applications/v1/ListExchangesRequest.ts';
import type { ListExchangesResponse as _switchboard_applications_v1_ListExchangesResponse, ListExchangesResponse__Output as _switchboard_applications_v1_ListExchangesResponse__Output } from '../../../switchboard/applications/v1/ListExchangesResponse.ts';
import type { MoveAddressRequest as _switchboard_applications_v1_MoveAddressRequest, MoveAddressRequest__Output as _switchboard_applications_v1_MoveAddressRequest__Output } from '../../../switchboard/applications/v1/MoveAddressRequest.ts';
import type { MoveAddressResponse as _switchboard_applications_v1_MoveAddressResponse, MoveAddressResponse__Output as _switchboard_applications_v1_MoveAddressResponse__Output } from '../../../switchboard/applications/v1/MoveAddressResponse.ts';
import type { ReleaseAddressRequest as _switchboard_applications_v1_ReleaseAddressRequest, ReleaseAddressRequest__Output as _switchboard_applications_v1_ReleaseAddressRequest__Output } from '../../../switchboard/applications/v1/ReleaseAddressRequest.ts';
import type { ReleaseAddressResponse as _switchboard_applications_v1_ReleaseAddressResponse, ReleaseAddressResponse__Output as _switchboard_applications_v1_ReleaseAddressResponse__Output } from '../../../switchboard/applications/v1/ReleaseAddressResponse.ts';
import type { ResolveAddressRequest as _switchboard_applications_v1_ResolveAddressRequest, ResolveAddressRequest__Output as _switchboard_applications_v1_ResolveAddressRequest__Output } from '../../../switchboard/applications/v1/ResolveAddressRequest.ts';
import type { ResolveAddressResponse as _switchboard_applications_v1_ResolveAddressResponse, ResolveAddressResponse__Output as _switchboard_applications_v1_ResolveAddressResponse__Output } from '../../../switchboard/applications/v1/ResolveAddressResponse.ts';

export interface AddressesServiceClient extends grpc.Client {
  ClaimAddress(argument: _switchboard_applications_v1_ClaimAddressRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ClaimAddressResponse__Output>): grpc.ClientUnaryCall;
  ClaimAddress(argument: _switchboard_applications_v1_ClaimAddressRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_ClaimAddressResponse__Output>): grpc.ClientUnaryCall;
  ClaimAddress(argument: _switchboard_applications_v1_ClaimAddressRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ClaimAddressResponse__Output>): grpc.ClientUnaryCall;
  ClaimAddress(argument: _switchboard_applications_v1_ClaimAddressRequest, callback: grpc.requestCallback<_switchboard_applications_v1_ClaimAddressResponse__Output>): grpc.ClientUnaryCall;
  claimAddress(argument: _switchboard_applications_v1_ClaimAddressRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ClaimAddressResponse__Output>): grpc.ClientUnaryCall;
  claimAddress(argument: _switchboard_applications_v1_ClaimAddressRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_ClaimAddressResponse__Output>): grpc.ClientUnaryCall;
  claimAddress(argument: _switchboard_applications_v1_ClaimAddressRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ClaimAddressResponse__Output>): grpc.ClientUnaryCall;
  claimAddress(argument: _switchboard_applications_v1_ClaimAddressRequest, callback: grpc.requestCallback<_switchboard_applications_v1_ClaimAddressResponse__Output>): grpc.ClientUnaryCall;
  
  GetAddress(argument: _switchboard_applications_v1_GetAddressRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_GetAddressResponse__Output>): grpc.ClientUnaryCall;
  GetAddress(argument: _switchboard_applications_v1_GetAddressRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_GetAddressResponse__Output>): grpc.ClientUnaryCall;
  GetAddress(argument: _switchboard_applications_v1_GetAddressRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_GetAddressResponse__Output>): grpc.ClientUnaryCall;
  GetAddress(argument: _switchboard_applications_v1_GetAddressRequest, callback: grpc.requestCallback<_switchboard_applications_v1_GetAddressResponse__Output>): grpc.ClientUnaryCall;
  getAddress(argument: _switchboard_applications_v1_GetAddressRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_GetAddressResponse__Output>): grpc.ClientUnaryCall;
  getAddress(argument: _switchboard_applications_v1_GetAddressRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_GetAddressResponse__Output>): grpc.ClientUnaryCall;
  getAddress(argument: _switchboard_applications_v1_GetAddressRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_GetAddressResponse__Output>): grpc.ClientUnaryCall;
  getAddress(argument: _switchboard_applications_v1_GetAddressRequest, callback: grpc.requestCallback<_switchboard_applications_v1_GetAddressResponse__Output>): grpc.ClientUnaryCall;
  
  ListAddresses(argument: _switchboard_applications_v1_ListAddressesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ListAddressesResponse__Output>): grpc.ClientUnaryCall;
  ListAddresses(argument: _switchboard_applications_v1_ListAddressesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_ListAddressesResponse__Output>): grpc.ClientUnaryCall;
  ListAddresses(argument: _switchboard_applications_v1_ListAddressesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ListAddressesResponse__Output>): grpc.ClientUnaryCall;
  ListAddresses(argument: _switchboard_applications_v1_ListAddressesRequest, callback: grpc.requestCallback<_switchboard_applications_v1_ListAddressesResponse__Output>): grpc.ClientUnaryCall;
  listAddresses(argument: _switchboard_applications_v1_ListAddressesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ListAddressesResponse__Output>): grpc.ClientUnaryCall;
  listAddresses(argument: _switchboard_applications_v1_ListAddressesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_ListAddressesResponse__Output>): grpc.ClientUnaryCall;
  listAddresses(argument: _switchboard_applications_v1_ListAddressesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ListAddressesResponse__Output>): grpc.ClientUnaryCall;
  listAddresses(argument: _switchboard_applications_v1_ListAddressesRequest, callback: grpc.requestCallback<_switchboard_applications_v1_ListAddressesResponse__Output>): grpc.ClientUnaryCall;
  
  ListAvailableNumbers(argument: _switchboard_applications_v1_ListAvailableNumbersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ListAvailableNumbersResponse__Output>): grpc.ClientUnaryCall;
  ListAvailableNumbers(argument: _switchboard_applications_v1_ListAvailableNumbersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_ListAvailableNumbersResponse__Output>): grpc.ClientUnaryCall;
  ListAvailableNumbers(argument: _switchboard_applications_v1_ListAvailableNumbersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ListAvailableNumbersResponse__Output>): grpc.ClientUnaryCall;
  ListAvailableNumbers(argument: _switchboard_applications_v1_ListAvailableNumbersRequest, callback: grpc.requestCallback<_switchboard_applications_v1_ListAvailableNumbersResponse__Output>): grpc.ClientUnaryCall;
  listAvailableNumbers(argument: _switchboard_applications_v1_ListAvailableNumbersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ListAvailableNumbersResponse__Output>): grpc.ClientUnaryCall;
  listAvailableNumbers(argument: _switchboard_applications_v1_ListAvailableNumbersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_ListAvailableNumbersResponse__Output>): grpc.ClientUnaryCall;
  listAvailableNumbers(argument: _switchboard_applications_v1_ListAvailableNumbersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ListAvailableNumbersResponse__Output>): grpc.ClientUnaryCall;
  listAvailableNumbers(argument: _switchboard_applications_v1_ListAvailableNumbersRequest, callback: grpc.requestCallback<_switchboard_applications_v1_ListAvailableNumbersResponse__Output>): grpc.ClientUnaryCall;
  
  ListExchanges(argument: _switchboard_applications_v1_ListExchangesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ListExchangesResponse__Output>): grpc.ClientUnaryCall;
  ListExchanges(argument: _switchboard_applications_v1_ListExchangesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_ListExchangesResponse__Output>): grpc.ClientUnaryCall;
  ListExchanges(argument: _switchboard_applications_v1_ListExchangesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ListExchangesResponse__Output>): grpc.ClientUnaryCall;
  ListExchanges(argument: _switchboard_applications_v1_ListExchangesRequest, callback: grpc.requestCallback<_switchboard_applications_v1_ListExchangesResponse__Output>): grpc.ClientUnaryCall;
  listExchanges(argument: _switchboard_applications_v1_ListExchangesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ListExchangesResponse__Output>): grpc.ClientUnaryCall;
  listExchanges(argument: _switchboard_applications_v1_ListExchangesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_ListExchangesResponse__Output>): grpc.ClientUnaryCall;
  listExchanges(argument: _switchboard_applications_v1_ListExchangesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ListExchangesResponse__Output>): grpc.ClientUnaryCall;
  listExchanges(argument: _switchboard_applications_v1_ListExchangesRequest, callback: grpc.requestCallback<_switchboard_applications_v1_ListExchangesResponse__Output>): grpc.ClientUnaryCall;
  
  MoveAddress(argument: _switchboard_applications_v1_MoveAddressRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_MoveAddressResponse__Output>): grpc.ClientUnaryCall;
  MoveAddress(argument: _switchboard_applications_v1_MoveAddressRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_MoveAddressResponse__Output>): grpc.ClientUnaryCall;
  MoveAddress(argument: _switchboard_applications_v1_MoveAddressRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_MoveAddressResponse__Output>): grpc.ClientUnaryCall;
  MoveAddress(argument: _switchboard_applications_v1_MoveAddressRequest, callback: grpc.requestCallback<_switchboard_applications_v1_MoveAddressResponse__Output>): grpc.ClientUnaryCall;
  moveAddress(argument: _switchboard_applications_v1_MoveAddressRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_MoveAddressResponse__Output>): grpc.ClientUnaryCall;
  moveAddress(argument: _switchboard_applications_v1_MoveAddressRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_MoveAddressResponse__Output>): grpc.ClientUnaryCall;
  moveAddress(argument: _switchboard_applications_v1_MoveAddressRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_MoveAddressResponse__Output>): grpc.ClientUnaryCall;
  moveAddress(argument: _switchboard_applications_v1_MoveAddressRequest, callback: grpc.requestCallback<_switchboard_applications_v1_MoveAddressResponse__Output>): grpc.ClientUnaryCall;
  
  ReleaseAddress(argument: _switchboard_applications_v1_ReleaseAddressRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ReleaseAddressResponse__Output>): grpc.ClientUnaryCall;
  ReleaseAddress(argument: _switchboard_applications_v1_ReleaseAddressRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_ReleaseAddressResponse__Output>): grpc.ClientUnaryCall;
  ReleaseAddress(argument: _switchboard_applications_v1_ReleaseAddressRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ReleaseAddressResponse__Output>): grpc.ClientUnaryCall;
  ReleaseAddress(argument: _switchboard_applications_v1_ReleaseAddressRequest, callback: grpc.requestCallback<_switchboard_applications_v1_ReleaseAddressResponse__Output>): grpc.ClientUnaryCall;
  releaseAddress(argument: _switchboard_applications_v1_ReleaseAddressRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ReleaseAddressResponse__Output>): grpc.ClientUnaryCall;
  releaseAddress(argument: _switchboard_applications_v1_ReleaseAddressRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_ReleaseAddressResponse__Output>): grpc.ClientUnaryCall;
  releaseAddress(argument: _switchboard_applications_v1_ReleaseAddressRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ReleaseAddressResponse__Output>): grpc.ClientUnaryCall;
  releaseAddress(argument: _switchboard_applications_v1_ReleaseAddressRequest, callback: grpc.requestCallback<_switchboard_applications_v1_ReleaseAddressResponse__Output>): grpc.ClientUnaryCall;
  
  ResolveAddress(argument: _switchboard_applications_v1_ResolveAddressRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ResolveAddressResponse__Output>): grpc.ClientUnaryCall;
  ResolveAddress(argument: _switchboard_applications_v1_ResolveAddressRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_ResolveAddressResponse__Output>): grpc.ClientUnaryCall;
  ResolveAddress(argument: _switchboard_applications_v1_ResolveAddressRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ResolveAddressResponse__Output>): grpc.ClientUnaryCall;
  ResolveAddress(argument: _switchboard_applications_v1_ResolveAddressRequest, callback: grpc.requestCallback<_switchboard_applications_v1_ResolveAddressResponse__Output>): grpc.ClientUnaryCall;
  resolveAddress(argument: _switchboard_applications_v1_ResolveAddressRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ResolveAddressResponse__Output>): grpc.ClientUnaryCall;
  resolveAddress(argument: _switchboard_applications_v1_ResolveAddressRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_ResolveAddressResponse__Output>): grpc.ClientUnaryCall;
  resolveAddress(argument: _switchboard_applications_v1_ResolveAddressRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ResolveAddressResponse__Output>): grpc.ClientUnaryCall;
  resolveAddress(argument: _switchboard_applications_v1_ResolveAddressRequest, callback: grpc.requestCallback<_switchboard_applications_v1_ResolveAddressResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface AddressesServiceHandlers extends grpc.UntypedServiceImplementation {
  ClaimAddress: grpc.handleUnaryCall<_switchboard_applications_v1_ClaimAddressRequest__Output, _switchboard_applications_v1_ClaimAddressResponse>;
  
  GetAddress: grpc.handleUnaryCall<_switchboard_applications_v1_GetAddressRequest__Output, _switchboard_applications_v1_GetAddressResponse>;
  
  ListAddresses: grpc.handleUnaryCall<_switchboard_applications_v1_ListAddressesRequest__Output, _switchboard_applications_v1_ListAddressesResponse>;
  
  ListAvailableNumbers: grpc.handleUnaryCall<_switchboard_applications_v1_ListAvailableNumbersRequest__Output, _switchboard_applications_v1_ListAvailableNumbersResponse>;
  
  ListExchanges: grpc.handleUnaryCall<_switchboard_applications_v1_ListExchangesRequest__Output, _switchboard_applications_v1_ListExchangesResponse>;
  
  MoveAddress: grpc.handleUnaryCall<_switchboard_applications_v1_MoveAddressRequest__Output, _switchboard_applications_v1_MoveAddressResponse>;
  
  ReleaseAddress: grpc.handleUnaryCall<_switchboard_applications_v1_ReleaseAddressRequest__Output, _switchboard_applications_v1_ReleaseAddressResponse>;
  
  ResolveAddress: grpc.handleUnaryCall<_switchboard_applications_v1_ResolveAddressRequest__Output, _switchboard_applications_v1_ResolveAddressResponse>;
  
}

export interface AddressesServiceDefinition extends grpc.ServiceDefinition {
  ClaimAddress: MethodDefinition<_switchboard_applications_v1_ClaimAddressRequest, _switchboard_applications_v1_ClaimAddressResponse, _switchboard_applications_v1_ClaimAddressRequest__Output, _switchboard_applications_v1_ClaimAddressResponse__Output>
  GetAddress: MethodDefinition<_switchboard_applications_v1_GetAddressRequest, _switchboard_applications_v1_GetAddressResponse, _switchboard_applications_v1_GetAddressRequest__Output, _switchboard_applications_v1_GetAddressResponse__Output>
  ListAddresses: MethodDefinition<_switchboard_applications_v1_ListAddressesRequest, _switchboard_applications_v1_ListAddressesResponse, _switchboard_applications_v1_ListAddressesRequest__Output, _switchboard_applications_v1_ListAddressesResponse__Output>
  ListAvailableNumbers: MethodDefinition<_switchboard_applications_v1_ListAvailableNumbersRequest, _switchboard_applications_v1_ListAvailableNumbersResponse, _switchboard_applications_v1_ListAvailableNumbersRequest__Output, _switchboard_applications_v1_ListAvailableNumbersResponse__Output>
  ListExchanges: MethodDefinition<_switchboard_applications_v1_ListExchangesRequest, _switchboard_applications_v1_ListExchangesResponse, _switchboard_applications_v1_ListExchangesRequest__Output, _switchboard_applications_v1_ListExchangesResponse__Output>
  MoveAddress: MethodDefinition<_switchboard_applications_v1_MoveAddressRequest, _switchboard_applications_v1_MoveAddressResponse, _switchboard_applications_v1_MoveAddressRequest__Output, _switchboard_applications_v1_MoveAddressResponse__Output>
  ReleaseAddress: MethodDefinition<_switchboard_applications_v1_ReleaseAddressRequest, _switchboard_applications_v1_ReleaseAddressResponse, _switchboard_applications_v1_ReleaseAddressRequest__Output, _switchboard_applications_v1_ReleaseAddressResponse__Output>
  ResolveAddress: MethodDefinition<_switchboard_applications_v1_ResolveAddressRequest, _switchboard_applications_v1_ResolveAddressResponse, _switchboard_applications_v1_ResolveAddressRequest__Output, _switchboard_applications_v1_ResolveAddressResponse__Output>
}
