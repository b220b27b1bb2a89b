// Original file: proto/switchboard/applications/v1/applications.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ListAuditEventsRequest as _switchboard_applications_v1_ListAuditEventsRequest, ListAuditEventsRequest__Output as _switchboard_applications_v1_ListAuditEventsRequest__Output } from '../../../switchboard/applications/v1/ListAuditEventsRequest.ts';
import type { ListAuditEventsResponse as _switchboard_applications_v1_ListAuditEventsResponse, ListAuditEventsResponse__Output as _switchboard_applications_v1_ListAuditEventsResponse__Output } from '../../../switchboard/applications/v1/ListAuditEventsResponse.ts';
import type { RecordAuditEventRequest as _switchboard_applications_v1_RecordAuditEventRequest, RecordAuditEventRequest__Output as _switchboard_applications_v1_RecordAuditEventRequest__Output } from '../../../switchboard/applications/v1/RecordAuditEventRequest.ts';
import type { RecordAuditEventResponse as _switchboard_applications_v1_RecordAuditEventResponse, RecordAuditEventResponse__Output as _switchboard_applications_v1_RecordAuditEventResponse__Output } from '../../../switchboard/applications/v1/RecordAuditEventResponse.ts';

export interface AuditServiceClient extends grpc.Client {
  ListAuditEvents(argument: _switchboard_applications_v1_ListAuditEventsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ListAuditEventsResponse__Output>): grpc.ClientUnaryCall;
  ListAuditEvents(argument: _switchboard_applications_v1_ListAuditEventsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_ListAuditEventsResponse__Output>): grpc.ClientUnaryCall;
  ListAuditEvents(argument: _switchboard_applications_v1_ListAuditEventsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ListAuditEventsResponse__Output>): grpc.ClientUnaryCall;
  ListAuditEvents(argument: _switchboard_applications_v1_ListAuditEventsRequest, callback: grpc.requestCallback<_switchboard_applications_v1_ListAuditEventsResponse__Output>): grpc.ClientUnaryCall;
  listAuditEvents(argument: _switchboard_applications_v1_ListAuditEventsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ListAuditEventsResponse__Output>): grpc.ClientUnaryCall;
  listAuditEvents(argument: _switchboard_applications_v1_ListAuditEventsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_ListAuditEventsResponse__Output>): grpc.ClientUnaryCall;
  listAuditEvents(argument: _switchboard_applications_v1_ListAuditEventsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_ListAuditEventsResponse__Output>): grpc.ClientUnaryCall;
  listAuditEvents(argument: _switchboard_applications_v1_ListAuditEventsRequest, callback: grpc.requestCallback<_switchboard_applications_v1_ListAuditEventsResponse__Output>): grpc.ClientUnaryCall;
  
  RecordAuditEvent(argument: _switchboard_applications_v1_RecordAuditEventRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_RecordAuditEventResponse__Output>): grpc.ClientUnaryCall;
  RecordAuditEvent(argument: _switchboard_applications_v1_RecordAuditEventRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_RecordAuditEventResponse__Output>): grpc.ClientUnaryCall;
  RecordAuditEvent(argument: _switchboard_applications_v1_RecordAuditEventRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_RecordAuditEventResponse__Output>): grpc.ClientUnaryCall;
  RecordAuditEvent(argument: _switchboard_applications_v1_RecordAuditEventRequest, callback: grpc.requestCallback<_switchboard_applications_v1_RecordAuditEventResponse__Output>): grpc.ClientUnaryCall;
  recordAuditEvent(argument: _switchboard_applications_v1_RecordAuditEventRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_RecordAuditEventResponse__Output>): grpc.ClientUnaryCall;
  recordAuditEvent(argument: _switchboard_applications_v1_RecordAuditEventRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_applications_v1_RecordAuditEventResponse__Output>): grpc.ClientUnaryCall;
  recordAuditEvent(argument: _switchboard_applications_v1_RecordAuditEventRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_applications_v1_RecordAuditEventResponse__Output>): grpc.ClientUnaryCall;
  recordAuditEvent(argument: _switchboard_applications_v1_RecordAuditEventRequest, callback: grpc.requestCallback<_switchboard_applications_v1_RecordAuditEventResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface AuditServiceHandlers extends grpc.UntypedServiceImplementation {
  ListAuditEvents: grpc.handleUnaryCall<_switchboard_applications_v1_ListAuditEventsRequest__Output, _switchboard_applications_v1_ListAuditEventsResponse>;
  
  RecordAuditEvent: grpc.handleUnaryCall<_switchboard_applications_v1_RecordAuditEventRequest__Output, _switchboard_applications_v1_RecordAuditEventResponse>;
  
}

export interface AuditServiceDefinition extends grpc.ServiceDefinition {
  ListAuditEvents: MethodDefinition<_switchboard_applications_v1_ListAuditEventsRequest, _switchboard_applications_v1_ListAuditEventsResponse, _switchboard_applications_v1_ListAuditEventsRequest__Output, _switchboard_applications_v1_ListAuditEventsResponse__Output>
  RecordAuditEvent: MethodDefinition<_switchboard_applications_v1_RecordAuditEventRequest, _switchboard_applications_v1_RecordAuditEventResponse, _switchboard_applications_v1_RecordAuditEventRequest__Output, _switchboard_applications_v1_RecordAuditEventResponse__Output>
}
