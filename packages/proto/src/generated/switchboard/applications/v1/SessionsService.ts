// Original file: proto/switchboard/applications/v1/applications.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { LaunchSessionRequest as _switchboard_applications_v1_LaunchSessionRequest, LaunchSessionRequest__Output as _switchboard_applications_v1_LaunchSessionRequest__Output } from '../../../switchboard/applications/v1/LaunchSessionRequest.ts';
import type { LaunchSessionResponse as _switchboard_applications_v1_LaunchSessionResponse, LaunchSessionResponse__Output as _switchboard_applications_v1_LaunchSessionResponse__Output } from '../../../switchboard/applications/v1/LaunchSessionResponse.ts';
import type { SignalSessionRequest as _switchboard_applications_v1_SignalSessionRequest, SignalSessionRequest__Output as _switchboard_applications_v1_SignalSessionRequest__Output } from '../../../switchboard/applications/v1/SignalSessionRequest.ts';
import type { SignalSessionResponse as _switchboard_applications_v1_SignalSessionResponse, SignalSessionResponse__Output as _switchboard_applications_v1_SignalSessionResponse__Output } from '../../../switchboard/applications/v1/SignalSessionResponse.ts';

export interface SessionsServiceClient extends grpc.Client {
  LaunchSession(argument: _switchboard_applications_v1_LaunchSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_LaunchSessionResponse__Output>): grpc.ClientUnaryCall;
  LaunchSession(argument: _switchboard_applications_v1_LaunchSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_LaunchSessionResponse__Output>): grpc.ClientUnaryCall;
  LaunchSession(argument: _switchboard_applications_v1_LaunchSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_LaunchSessionResponse__Output>): grpc.ClientUnaryCall;
  LaunchSession(argument: _switchboard_applications_v1_LaunchSessionRequest, callback: grpc.requestCallback<_switchboard_applications_v1_LaunchSessionResponse__Output>): grpc.ClientUnaryCall;
  launchSession(argument: _switchboard_applications_v1_LaunchSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_LaunchSessionResponse__Output>): grpc.ClientUnaryCall;
  launchSession(argument: _switchboard_applications_v1_LaunchSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_LaunchSessionResponse__Output>): grpc.ClientUnaryCall;
  launchSession(argument: _switchboard_applications_v1_LaunchSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_LaunchSessionResponse__Output>): grpc.ClientUnaryCall;
  launchSession(argument: _switchboard_applications_v1_LaunchSessionRequest, callback: grpc.requestCallback<_switchboard_applications_v1_LaunchSessionResponse__Output>): grpc.ClientUnaryCall;
  
  SignalSession(argument: _switchboard_applications_v1_SignalSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_SignalSessionResponse__Output>): grpc.ClientUnaryCall;
  SignalSession(argument: _switchboard_applications_v1_SignalSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_SignalSessionResponse__Output>): grpc.ClientUnaryCall;
  SignalSession(argument: _switchboard_applications_v1_SignalSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_SignalSessionResponse__Output>): grpc.ClientUnaryCall;
  SignalSession(argument: _switchboard_applications_v1_SignalSessionRequest, callback: grpc.requestCallback<_switchboard_applications_v1_SignalSessionResponse__Output>): grpc.ClientUnaryCall;
  signalSession(argument: _switchboard_applications_v1_SignalSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_SignalSessionResponse__Output>): grpc.ClientUnaryCall;
  signalSession(argument: _switchboard_applications_v1_SignalSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_SignalSessionResponse__Output>): grpc.ClientUnaryCall;
  signalSession(argument: _switchboard_applications_v1_SignalSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_SignalSessionResponse__Output>): grpc.ClientUnaryCall;
  signalSession(argument: _switchboard_applications_v1_SignalSessionRequest, callback: grpc.requestCallback<_switchboard_applications_v1_SignalSessionResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface SessionsServiceHandlers extends grpc.UntypedServiceImplementation {
  LaunchSession: grpc.handleUnaryCall<_switchboard_applications_v1_LaunchSessionRequest__Output, _switchboard_applications_v1_LaunchSessionResponse>;
  
  SignalSession: grpc.handleUnaryCall<_switchboard_applications_v1_SignalSessionRequest__Output, _switchboard_applications_v1_SignalSessionResponse>;
  
}

export interface SessionsServiceDefinition extends grpc.ServiceDefinition {
  LaunchSession: MethodDefinition<_switchboard_applications_v1_LaunchSessionRequest, _switchboard_applications_v1_LaunchSessionResponse, _switchboard_applications_v1_LaunchSessionRequest__Output, _switchboard_applications_v1_LaunchSessionResponse__Output>
  SignalSession: MethodDefinition<_switchboard_applications_v1_SignalSessionRequest, _switchboard_applications_v1_SignalSessionResponse, _switchboard_applications_v1_SignalSessionRequest__Output, _switchboard_applications_v1_SignalSessionResponse__Output>
}
