// Loads the .proto files of proto/ once and exposes service definitions and typed clients.
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import protobuf from 'protobufjs';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { messageCodec } from './codec.ts';
import type { ProtoGrpcType as ApplicationsProto } from './generated/applications.ts';
import type { ProtoGrpcType as WebhooksProto } from './generated/webhooks.ts';
import type { ProtoGrpcType as HealthProto } from './generated/health.ts';
import type { ProtoGrpcType as BatchProto } from './generated/batch.ts';
import { createCallBatcher, promiseClient, type CallBatcher, type PromiseClientOptions } from '@switchboard/rpc';

export const PROTO_ROOT = fileURLToPath(new URL('../../../proto', import.meta.url));

/** How the protos are read into JavaScript values (proto-loader's options; the static codecs decode alike). */
export const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: false,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
  includeDirs: [PROTO_ROOT],
};

/** The protobufjs root of `file` (a path under PROTO_ROOT) and its imports, resolved, with LOADER_OPTIONS' field names. */
export function protoRoot(file: string): protobuf.Root {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => (isAbsolute(target) ? target : join(PROTO_ROOT, target));
  root.loadSync(file, { keepCase: LOADER_OPTIONS.keepCase });
  root.resolveAll();
  return root;
}

function load<T>(file: string): T {
  const def = protoLoader.loadSync(file, LOADER_OPTIONS);
  useStaticCodecs(def, file);
  return grpc.loadPackageDefinition(def) as unknown as T;
}

/**
 * Gives every method of the file's services the static codecs of codec.ts (same conventions as
 * LOADER_OPTIONS, without proto-loader's per-message copies), clients and servers alike.
 */
function useStaticCodecs(def: protoLoader.PackageDefinition, file: string): void {
  const root = protoRoot(file);
  for (const [name, methods] of Object.entries(def)) {
    const service = root.lookup(name);
    if (!(service instanceof protobuf.Service)) continue;
    for (const [methodName, m] of Object.entries(service.methods)) {
      const method = (methods as protoLoader.ServiceDefinition)[methodName];
      if (!method) continue;
      const request = m.resolvedRequestType && messageCodec(m.resolvedRequestType);
      const response = m.resolvedResponseType && messageCodec(m.resolvedResponseType);
      if (request) Object.assign(method, { requestSerialize: request.encode, requestDeserialize: request.decode });
      if (response) Object.assign(method, { responseSerialize: response.encode, responseDeserialize: response.decode });
    }
  }
}

let applications: ApplicationsProto | undefined;
let webhooks: WebhooksProto | undefined;
let health: HealthProto | undefined;
let batch: BatchProto | undefined;

export function applicationsProto(): ApplicationsProto['switchboard']['applications']['v1'] {
  applications ??= load<ApplicationsProto>('switchboard/applications/v1/applications.proto');
  return applications.switchboard.applications.v1;
}

export function webhooksProto(): WebhooksProto['switchboard']['webhooks']['v1'] {
  webhooks ??= load<WebhooksProto>('switchboard/webhooks/v1/webhooks.proto');
  return webhooks.switchboard.webhooks.v1;
}

export function healthProto(): HealthProto['grpc']['health']['v1'] {
  health ??= load<HealthProto>('grpc/health/v1/health.proto');
  return health.grpc.health.v1;
}

export function batchProto(): BatchProto['switchboard']['rpc']['v1'] {
  batch ??= load<BatchProto>('switchboard/rpc/v1/batch.proto');
  return batch.switchboard.rpc.v1;
}

const CHANNEL_OPTIONS: grpc.ChannelOptions = {
  'grpc.keepalive_time_ms': 30_000,
  'grpc.keepalive_timeout_ms': 10_000,
  'grpc.initial_reconnect_backoff_ms': 200,
  'grpc.max_reconnect_backoff_ms': 2_000,
  // No retry policy: a call that reached a server is never repeated (callers decide). Transparent
  // retries stay on: a call that never left for the server (it raced a GOAWAY, say when a server
  // ends a connection at grpc.max_connection_age) goes out again on a new connection instead of
  // failing with UNAVAILABLE. Channelz bookkeeping is off: it costs CPU on every call.
  'grpc.enable_channelz': 0,
  // The answers of a batch of list calls run to hundreds of KiB: with HTTP/2's default window (64 KiB)
  // each such answer would wait for the client's WINDOW_UPDATEs several times on its way.
  'grpc-node.flow_control_window': 4 * 1024 * 1024,
  // Spread calls over every address a name resolves to (several replicas behind one DNS name).
  'grpc.service_config': JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }] }),
};

type ClientOptions = Omit<PromiseClientOptions, 'target'>;

/**
 * One batcher for every client of a service's address (give it to each as `batch`): their calls go
 * alone while few are out and as BatchService batches when many are (the gateway under load).
 */
export function callBatcher(
  address: string,
  opts: { target: string; maxInFlight?: number; metrics?: PromiseClientOptions['metrics'] },
): CallBatcher {
  const p = batchProto();
  // A batch's answer holds every call's answer: no size limit beyond what the calls would have had alone.
  return createCallBatcher(
    new p.BatchService(address, grpc.credentials.createInsecure(), {
      ...CHANNEL_OPTIONS,
      'grpc.max_receive_message_length': -1,
    }),
    opts,
  );
}

export function applicationsClient(address: string, opts: ClientOptions = {}) {
  const p = applicationsProto();
  return promiseClient(new p.ApplicationsService(address, grpc.credentials.createInsecure(), CHANNEL_OPTIONS), {
    ...opts,
    target: 'applications',
  });
}

export function accountsClient(address: string, opts: ClientOptions = {}) {
  const p = applicationsProto();
  return promiseClient(new p.AccountsService(address, grpc.credentials.createInsecure(), CHANNEL_OPTIONS), {
    ...opts,
    target: 'applications',
  });
}

export function addressesClient(address: string, opts: ClientOptions = {}) {
  const p = applicationsProto();
  return promiseClient(new p.AddressesService(address, grpc.credentials.createInsecure(), CHANNEL_OPTIONS), {
    ...opts,
    target: 'applications',
  });
}

export function sessionsClient(address: string, opts: ClientOptions = {}) {
  const p = applicationsProto();
  return promiseClient(new p.SessionsService(address, grpc.credentials.createInsecure(), CHANNEL_OPTIONS), {
    ...opts,
    target: 'applications',
  });
}

export function apiKeysClient(address: string, opts: ClientOptions = {}) {
  const p = applicationsProto();
  return promiseClient(new p.ApiKeysService(address, grpc.credentials.createInsecure(), CHANNEL_OPTIONS), {
    ...opts,
    target: 'applications',
  });
}

export function consoleSessionsClient(address: string, opts: ClientOptions = {}) {
  const p = applicationsProto();
  return promiseClient(new p.ConsoleSessionsService(address, grpc.credentials.createInsecure(), CHANNEL_OPTIONS), {
    ...opts,
    target: 'applications',
  });
}

export function auditClient(address: string, opts: ClientOptions = {}) {
  const p = applicationsProto();
  return promiseClient(new p.AuditService(address, grpc.credentials.createInsecure(), CHANNEL_OPTIONS), {
    ...opts,
    target: 'applications',
  });
}

export function webhooksClient(address: string, opts: ClientOptions = {}) {
  const p = webhooksProto();
  return promiseClient(new p.WebhooksService(address, grpc.credentials.createInsecure(), CHANNEL_OPTIONS), {
    ...opts,
    target: 'webhooks',
  });
}

export function healthClient(address: string, target: string, opts: ClientOptions = {}) {
  const p = healthProto();
  // Probes, like the HTTP ones: not traced.
  return promiseClient(new p.Health(address, grpc.credentials.createInsecure(), CHANNEL_OPTIONS), {
    ...opts,
    target,
    traced: false,
  });
}

export type ApplicationsClient = ReturnType<typeof applicationsClient>;
export type AccountsClient = ReturnType<typeof accountsClient>;
export type WebhooksClient = ReturnType<typeof webhooksClient>;
export type AddressesClient = ReturnType<typeof addressesClient>;
export type SessionsClient = ReturnType<typeof sessionsClient>;
export type ApiKeysClient = ReturnType<typeof apiKeysClient>;
export type AuditClient = ReturnType<typeof auditClient>;
export type ConsoleSessionsClient = ReturnType<typeof consoleSessionsClient>;
export type HealthClient = ReturnType<typeof healthClient>;

export type { Application__Output as ApplicationMessage } from './generated/switchboard/applications/v1/Application.ts';
export type { Account__Output as AccountMessage } from './generated/switchboard/applications/v1/Account.ts';
export type { Address__Output as AddressMessage } from './generated/switchboard/applications/v1/Address.ts';
export type { Environment__Output as EnvironmentMessage } from './generated/switchboard/applications/v1/Environment.ts';
export type { Subscription__Output as SubscriptionMessage } from './generated/switchboard/webhooks/v1/Subscription.ts';
export type { Recovery__Output as RecoveryMessage } from './generated/switchboard/webhooks/v1/Recovery.ts';
export type { MatchedSubscription__Output as MatchedSubscriptionMessage } from './generated/switchboard/webhooks/v1/MatchedSubscription.ts';
export type { Delivery, Delivery__Output as DeliveryMessage } from './generated/switchboard/webhooks/v1/Delivery.ts';
export type { SessionRecord__Output as SessionRecordMessage } from './generated/switchboard/webhooks/v1/SessionRecord.ts';
export type { ApplicationsServiceDefinition } from './generated/switchboard/applications/v1/ApplicationsService.ts';
export type { AccountsServiceDefinition } from './generated/switchboard/applications/v1/AccountsService.ts';
export type { WebhooksServiceDefinition } from './generated/switchboard/webhooks/v1/WebhooksService.ts';
export type { AuditEvent__Output as AuditEventMessage } from './generated/switchboard/applications/v1/AuditEvent.ts';
export type { ApiKey__Output as ApiKeyMessage } from './generated/switchboard/applications/v1/ApiKey.ts';
