import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { ListValue as _google_protobuf_ListValue, ListValue__Output as _google_protobuf_ListValue__Output } from './google/protobuf/ListValue.ts';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from './google/protobuf/Struct.ts';
import type { Value as _google_protobuf_Value, Value__Output as _google_protobuf_Value__Output } from './google/protobuf/Value.ts';
import type { ApplicationChanged as _switchboard_events_v1_ApplicationChanged, ApplicationChanged__Output as _switchboard_events_v1_ApplicationChanged__Output } from './switchboard/events/v1/ApplicationChanged.ts';
import type { ApplicationDeleted as _switchboard_events_v1_ApplicationDeleted, ApplicationDeleted__Output as _switchboard_events_v1_ApplicationDeleted__Output } from './switchboard/events/v1/ApplicationDeleted.ts';
import type { NotificationEvent as _switchboard_events_v1_NotificationEvent, NotificationEvent__Output as _switchboard_events_v1_NotificationEvent__Output } from './switchboard/events/v1/NotificationEvent.ts';
import type { SessionNew as _switchboard_events_v1_SessionNew, SessionNew__Output as _switchboard_events_v1_SessionNew__Output } from './switchboard/events/v1/SessionNew.ts';
import type { SubscriptionChanged as _switchboard_events_v1_SubscriptionChanged, SubscriptionChanged__Output as _switchboard_events_v1_SubscriptionChanged__Output } from './switchboard/events/v1/SubscriptionChanged.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  google: {
    protobuf: {
      ListValue: MessageTypeDefinition<_google_protobuf_ListValue, _google_protobuf_ListValue__Output>
      NullValue: EnumTypeDefinition
      Struct: MessageTypeDefinition<_google_protobuf_Struct, _google_protobuf_Struct__Output>
      Value: MessageTypeDefinition<_google_protobuf_Value, _google_protobuf_Value__Output>
    }
  }
  switchboard: {
    events: {
      v1: {
        ApplicationChanged: MessageTypeDefinition<_switchboard_events_v1_ApplicationChanged, _switchboard_events_v1_ApplicationChanged__Output>
        ApplicationDeleted: MessageTypeDefinition<_switchboard_events_v1_ApplicationDeleted, _switchboard_events_v1_ApplicationDeleted__Output>
        NotificationEvent: MessageTypeDefinition<_switchboard_events_v1_NotificationEvent, _switchboard_events_v1_NotificationEvent__Output>
        SessionNew: MessageTypeDefinition<_switchboard_events_v1_SessionNew, _switchboard_events_v1_SessionNew__Output>
        SubscriptionChanged: MessageTypeDefinition<_switchboard_events_v1_SubscriptionChanged, _switchboard_events_v1_SubscriptionChanged__Output>
      }
    }
  }
}

