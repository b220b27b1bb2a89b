// gRPC plumbing shared by every service: a server with grpc.health.v1 and uniform error mapping,
// metrics and request ids; clients whose every call has a deadline and carries the request id.
import * as grpc from '@grpc/grpc-js';
import { Counter, Histogram, type Registry } from 'prom-client';
import { isAccountId } from '@switchboard/events';
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { AppError, classify, fromGrpcError, toGrpcError } from '@switchboard/errors';
import {
  CallBatcher,
  type CallBatcherOptions,
  metadataFromMap,
  metadataToMap,
  type UnaryCallback,
  type UnaryMethod,
  withoutStackCapture,
} from './grpc-batch.ts';
import {
  IDEMPOTENCY_ACCOUNT,
  IDEMPOTENCY_HASH,
  IDEMPOTENCY_KEY,
  type IdempotencyScope,
  type IdempotencyStore,
  AUDIT_KEY,
  auditMetadataValue,
  auditOf,
  type AuditContext,
} from '@switchboard/db';
import type { Logger } from '@switchboard/observability';
import { LATENCY_BUCKETS, grpcClientSpan, tracedGrpcCall, type TraceContext } from '@switchboard/observability';

export const REQUEST_ID_KEY = 'x-request-id';
/** Metadata carrying the bearer token of RPCs kept for one caller (GrpcServer.requireToken). */
export const AUTHORIZATION_KEY = 'authorization';

const digest = (text: string) => createHash('sha256').update(text).digest();

export interface CallContext {
  requestId: string;
  logger: Logger;
  /** Who made the API request this call serves (for the audit log), when the caller said. */
  audit?: AuditContext;
  /** Aborted once the caller has gone (a call that came alone; batched calls have none). */
  signal?: AbortSignal;
}

export type UnaryHandler<Req, Res> = (request: Req, ctx: CallContext) => Promise<Res>;

/** Handlers keyed by RPC name as written in the .proto (e.g. "CreateApplication"). */
export type UnaryHandlers<Def> = {
  [K in keyof Def]?: Def[K] extends {
    requestDeserialize: (b: Buffer) => infer Req;
    responseSerialize: (v: infer Res) => Buffer;
  }
    ? UnaryHandler<Req, Res>
    : never;
};

export interface GrpcServerOptions {
  service: string;
  logger: Logger;
  registry: Registry;
  /** Where calls that carry an Idempotency-Key (gRPC metadata) keep their answers; without it the key is ignored. */
  idempotency?: IdempotencyStore;
}

/** The idempotency scope a call carries in its metadata, when all three parts are there. */
function idempotencyOf(metadata: grpc.Metadata): IdempotencyScope | undefined {
  const [key] = metadata.get(IDEMPOTENCY_KEY);
  const [hash] = metadata.get(IDEMPOTENCY_HASH);
  const [accountId] = metadata.get(IDEMPOTENCY_ACCOUNT);
  if (
    typeof key !== 'string' ||
    typeof hash !== 'string' ||
    typeof accountId !== 'string' ||
    !key ||
    !hash ||
    !isAccountId(accountId)
  )
    return undefined;
  return { key, hash, accountId };
}

/** A handler as the server runs it, for a call that came alone or in a batch. */
type Invoke = (
  request: unknown,
  metadata: grpc.Metadata,
  done: (err: Partial<grpc.ServiceError> | null, response?: unknown) => void,
  /** Aborted when the caller goes (cancels, or its deadline passes) before the answer. */
  signal?: AbortSignal,
) => void;

interface Route {
  invoke: Invoke;
  decode(bytes: Buffer): unknown;
  encode(value: unknown): Buffer;
}

/** Most calls one BatchService.Call may carry (clients send at most 64). */
const MAX_BATCH_CALLS = 256;

export class GrpcServer {
  readonly server: grpc.Server;
  /** Every handler added, by full method path: what a batched call names. */
  private readonly routes = new Map<string, Route>();
  private readonly handled: Counter<'method' | 'code'>;
  private readonly duration: Histogram<'method'>;
  private serving = true;
  /** RPC names that only callers with a token may call, each with the digest of `Bearer <token>`. */
  private readonly guarded = new Map<string, Buffer>();

  constructor(private readonly opts: GrpcServerOptions) {
    this.server = new grpc.Server({
      'grpc.max_receive_message_length': 4 * 1024 * 1024,
      'grpc.enable_channelz': 0,
      'grpc.keepalive_time_ms': 60_000,
      // Clients re-resolve and rebalance across replicas after a scale-up.
      'grpc.max_connection_age_ms': 5 * 60_000,
      'grpc.max_connection_age_grace_ms': 30_000,
    });
    this.handled = new Counter({
      name: `${opts.service}_grpc_server_handled_total`,
      help: 'gRPC calls handled, by method and status code.',
      labelNames: ['method', 'code'],
      registers: [opts.registry],
    });
    this.duration = new Histogram({
      name: `${opts.service}_grpc_server_duration_seconds`,
      help: 'gRPC handling time in seconds, by method.',
      labelNames: ['method'],
      buckets: LATENCY_BUCKETS,
      registers: [opts.registry],
    });
  }

  /**
   * Keeps the RPCs `methods` (names as in the .proto) for callers that send `authorization: Bearer
   * <token>` (compared in constant time): any other call of them, batched or not, is refused with
   * PERMISSION_DENIED before its handler runs. No token: they are served to every caller. Called
   * again with other methods and another token, each group keeps its own caller.
   */
  requireToken(methods: readonly string[], token: string | undefined): void {
    if (token === undefined || token === '') return;
    const d = digest(`Bearer ${token}`);
    for (const m of methods) this.guarded.set(m, d);
  }

  private allowed(method: string, metadata: grpc.Metadata): boolean {
    const wanted = this.guarded.get(method);
    if (!wanted) return true;
    const [sent] = metadata.get(AUTHORIZATION_KEY);
    return typeof sent === 'string' && timingSafeEqual(digest(sent), wanted);
  }

  /** Adds a service; each handler is wrapped with error mapping, logging and metrics. */
  add<Def extends grpc.ServiceDefinition>(definition: Def, handlers: UnaryHandlers<Def>): void {
    const impl: grpc.UntypedServiceImplementation = {};
    for (const name of Object.keys(definition)) {
      const handler = (handlers as Record<string, UnaryHandler<unknown, unknown> | undefined>)[name];
      if (!handler) continue;
      const method = definition[name]!;
      const invoke = this.wrap(name, method.path, handler);
      this.routes.set(method.path, { invoke, decode: method.requestDeserialize, encode: method.responseSerialize });
      impl[name] = (call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
        const gone = new AbortController();
        call.once('cancelled', () => gone.abort(new AppError('unavailable', 'the caller has gone')));
        invoke(call.request, call.metadata, callback, gone.signal);
      };
    }
    this.server.addService(definition, impl);
  }

  /**
   * Serves switchboard.rpc.v1.BatchService: each call of a batch runs through the handler added for
   * its method (with its own metadata, metrics, trace and idempotency), all of them concurrently;
   * the answer holds every call's status and response in order. Add it after the other services.
   */
  addBatch(definition: grpc.ServiceDefinition): void {
    this.server.addService(definition, {
      Call: (
        call: grpc.ServerUnaryCall<
          { calls: { method: string; request: Buffer; metadata: Record<string, Buffer> }[] },
          unknown
        >,
        callback: grpc.sendUnaryData<unknown>,
      ) => {
        const calls = call.request.calls;
        if (calls.length > MAX_BATCH_CALLS) {
          callback({ code: grpc.status.INVALID_ARGUMENT, details: `a batch carries at most ${MAX_BATCH_CALLS} calls` });
          return;
        }
        const results: BatchedResult[] = new Array(calls.length);
        let left = calls.length;
        if (left === 0) {
          callback(null, { results });
          return;
        }
        for (let i = 0; i < calls.length; i++) {
          this.runBatched(calls[i]!, (result) => {
            results[i] = result;
            if (--left === 0) callback(null, { results });
          });
        }
      },
    });
  }

  private runBatched(
    call: { method: string; request: Buffer; metadata: Record<string, Buffer> },
    done: (result: BatchedResult) => void,
  ): void {
    const route = this.routes.get(call.method);
    if (!route) {
      done(failed(grpc.status.UNIMPLEMENTED, `no method ${call.method}`));
      return;
    }
    let request: unknown;
    let metadata: grpc.Metadata;
    try {
      request = route.decode(call.request);
      metadata = metadataFromMap(call.metadata);
    } catch {
      done(failed(grpc.status.INTERNAL, 'the batched call could not be decoded'));
      return;
    }
    route.invoke(request, metadata, (err, response) => {
      if (err) done(failed(err.code ?? grpc.status.UNKNOWN, err.details ?? '', err.metadata));
      else done({ code: grpc.status.OK, details: '', response: route.encode(response), metadata: {} });
    });
  }

  /** Serves grpc.health.v1: SERVING until stop() begins. */
  addHealth(definition: grpc.ServiceDefinition): void {
    const check = () => ({ status: this.serving ? 'SERVING' : 'NOT_SERVING' });
    this.server.addService(definition, {
      Check: (_call: grpc.ServerUnaryCall<unknown, unknown>, cb: grpc.sendUnaryData<unknown>) => cb(null, check()),
      Watch: (call: grpc.ServerWritableStream<unknown, unknown>) => {
        call.write(check());
        const timer = setInterval(() => call.write(check()), 5000);
        call.on('cancelled', () => clearInterval(timer));
        call.on('close', () => clearInterval(timer));
      },
    });
  }

  private wrap(method: string, path: string, handler: UnaryHandler<unknown, unknown>): Invoke {
    return (request, metadata, callback, signal) =>
      tracedGrpcCall(path, metadata, (endSpan) => {
        const started = process.hrtime.bigint();
        const rid = metadata.get(REQUEST_ID_KEY)[0];
        const requestId = typeof rid === 'string' && rid.length > 0 && rid.length <= 200 ? rid : randomUUID();
        const opts = this.opts;
        // The child logger is made on first use: most calls never log.
        let child: Logger | undefined;
        const audit = auditOf(metadata);
        const ctx: CallContext = {
          requestId,
          ...(audit ? { audit } : {}),
          ...(signal ? { signal } : {}),
          get logger() {
            child ??= opts.logger.child({ requestId, rpc: method });
            return child;
          },
        };
        const finish = (code: grpc.status, message?: string) => {
          endSpan(code, message);
          this.handled.inc({ method, code: grpc.status[code] ?? String(code) });
          this.duration.observe({ method }, Number(process.hrtime.bigint() - started) / 1e9);
        };
        if (!this.allowed(method, metadata)) {
          const details = `${method} is served only to callers with this service's internal token`;
          finish(grpc.status.PERMISSION_DENIED, details);
          callback({ code: grpc.status.PERMISSION_DENIED, details });
          return;
        }
        const scope = opts.idempotency ? idempotencyOf(metadata) : undefined;
        const answer =
          scope && opts.idempotency
            ? opts.idempotency.run(scope, method, () => handler(request, ctx))
            : handler(request, ctx);
        answer.then(
          (response) => {
            finish(grpc.status.OK);
            callback(null, response);
          },
          (err: unknown) => {
            const app = classify(err);
            if (app.code === 'internal') ctx.logger.error({ err }, 'rpc failed');
            else if (app.code === 'unavailable')
              ctx.logger.warn({ err: errorSummary(err) }, 'rpc failed: dependency unavailable');
            else if (opts.logger.isLevelEnabled('debug'))
              ctx.logger.debug({ code: app.code, detail: app.detail }, 'rpc rejected');
            const e = toGrpcError(app);
            finish(e.code ?? grpc.status.UNKNOWN, e.message);
            callback(e);
          },
        );
      });
  }

  async listen(host: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.bindAsync(`${host}:${port}`, grpc.ServerCredentials.createInsecure(), (err, bound) => {
        if (err) reject(err);
        else resolve(bound);
      });
    });
  }

  /** Stops accepting calls, lets in-flight calls finish (up to `graceMs`), then closes. */
  async stop(graceMs = 10_000): Promise<void> {
    this.serving = false;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.server.forceShutdown();
        resolve();
      }, graceMs);
      this.server.tryShutdown(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

interface BatchedResult {
  code: number;
  details: string;
  response?: Buffer;
  metadata: Record<string, Buffer>;
}

function failed(code: number, details: string, metadata?: grpc.Metadata): BatchedResult {
  return { code, details, metadata: metadata ? metadataToMap(metadata) : {} };
}

function errorSummary(err: unknown): string {
  const e = err as { message?: string; cause?: { message?: string } };
  return e?.cause?.message ?? e?.message ?? String(err);
}

// ---------------------------------------------------------------------------------------------
// Clients

export interface ClientCallOptions {
  requestId?: string;
  /** Deadline in ms from now; default from the client. */
  timeoutMs?: number;
  /** An API request's Idempotency-Key, its request hash and account: the called service answers a repeat from its store. */
  idempotency?: IdempotencyScope;
  /** Who made the API request this call serves: the service writes it to the audit log with the change. */
  audit?: AuditContext;
  /**
   * The trace the call belongs to (a request's requestTrace); without it, the active context's.
   * A process without a context manager (the gateway) names it on every call it makes for a request.
   */
  trace?: TraceContext;
}

/** Turns a generated client interface into promise-returning methods taking (request, options). */
export type PromiseClient<C> = {
  [K in Exclude<keyof C, keyof grpc.Client> as K extends string
    ? K extends Uncapitalize<K>
      ? K
      : never
    : never]: C[K] extends (argument: infer Req, callback: grpc.requestCallback<infer Res>) => grpc.ClientUnaryCall
    ? (request: Req, options?: ClientCallOptions) => Promise<Res>
    : never;
};

interface ClientMetrics {
  calls: Counter<'service' | 'method' | 'code'>;
  duration: Histogram<'service' | 'method'>;
  batchCalls: Histogram<'service'>;
}
const clientMetrics = new WeakMap<Registry, ClientMetrics>();

function metricsFor(registry: Registry, prefix: string): ClientMetrics {
  let m = clientMetrics.get(registry);
  if (!m) {
    m = {
      calls: new Counter({
        name: `${prefix}_grpc_client_calls_total`,
        help: 'Outgoing gRPC calls, by target service, method and status code.',
        labelNames: ['service', 'method', 'code'],
        registers: [registry],
      }),
      duration: new Histogram({
        name: `${prefix}_grpc_client_duration_seconds`,
        help: 'Outgoing gRPC call time in seconds, by target service and method.',
        labelNames: ['service', 'method'],
        buckets: LATENCY_BUCKETS,
        registers: [registry],
      }),
      batchCalls: new Histogram({
        name: `${prefix}_grpc_client_batch_calls`,
        help: 'Calls carried by each batch sent (BatchService), by target service.',
        labelNames: ['service'],
        buckets: [2, 4, 8, 16, 32, 64],
        registers: [registry],
      }),
    };
    clientMetrics.set(registry, m);
  }
  return m;
}

export interface PromiseClientOptions {
  /** Short name of the target service, for metrics ("applications"). */
  target: string;
  defaultTimeoutMs?: number;
  metrics?: { registry: Registry; prefix: string };
  /** Calls make client spans when tracing is on (default true; probes turn it off). */
  traced?: boolean;
  /** Sends the calls through this batcher (shared by the clients of one address) instead of one by one. */
  batch?: CallBatcher;
  /** Sent as `authorization: Bearer <token>` with every call: the target's internal token (GrpcServer.requireToken). */
  token?: string;
}

/**
 * Wraps a raw grpc-js client. Every call gets a deadline and the request id; failures come back
 * as AppError (transport failures as `unavailable`).
 */
export function promiseClient<C extends grpc.Client>(
  raw: C,
  opts: PromiseClientOptions,
): PromiseClient<C> & { close(): void; raw: C } {
  const timeoutDefault = opts.defaultTimeoutMs ?? 5000;
  const m = opts.metrics ? metricsFor(opts.metrics.registry, opts.metrics.prefix) : undefined;
  const cache = new Map<string, unknown>();
  return new Proxy({} as PromiseClient<C> & { close(): void; raw: C }, {
    get(_target, prop) {
      if (prop === 'close') return () => raw.close();
      if (prop === 'raw') return raw;
      if (typeof prop !== 'string' || prop === 'then') return undefined;
      let fn = cache.get(prop);
      if (!fn) {
        const method = (raw as unknown as Record<string, unknown>)[prop];
        if (typeof method !== 'function') return undefined;
        const path = opts.traced === false ? undefined : (method as { path?: unknown }).path;
        fn = (request: unknown, options: ClientCallOptions = {}) =>
          new Promise((resolve, reject) => {
            const metadata = new grpc.Metadata();
            metadata.set(REQUEST_ID_KEY, options.requestId ?? randomUUID());
            if (opts.token) metadata.set(AUTHORIZATION_KEY, `Bearer ${opts.token}`);
            if (options.audit) metadata.set(AUDIT_KEY, auditMetadataValue(options.audit));
            if (options.idempotency) {
              metadata.set(IDEMPOTENCY_KEY, options.idempotency.key);
              metadata.set(IDEMPOTENCY_HASH, options.idempotency.hash);
              metadata.set(IDEMPOTENCY_ACCOUNT, options.idempotency.accountId);
            }
            const endSpan = typeof path === 'string' ? grpcClientSpan(path, metadata, options.trace) : undefined;
            const deadline = Date.now() + (options.timeoutMs ?? timeoutDefault);
            const started = process.hrtime.bigint();
            const done: UnaryCallback = (err, res) => {
              if (m) {
                m.calls.inc({
                  service: opts.target,
                  method: prop,
                  code: grpc.status[err ? err.code : grpc.status.OK] ?? 'UNKNOWN',
                });
                m.duration.observe(
                  { service: opts.target, method: prop },
                  Number(process.hrtime.bigint() - started) / 1e9,
                );
              }
              endSpan?.(err ? err.code : grpc.status.OK, err?.details);
              if (err) reject(fromGrpcError(err));
              else resolve(res);
            };
            if (opts.batch) {
              opts.batch.send(raw, method as UnaryMethod, request, metadata, deadline, done);
              return;
            }
            withoutStackCapture(() => (method as UnaryMethod).call(raw, request, metadata, { deadline }, done));
          });
        cache.set(prop, fn);
      }
      return fn;
    },
  });
}

/**
 * A batcher for the clients of one address, given a BatchService client on that address: their
 * calls leave alone when the client is idle and in batches when it is busy (see CallBatcher).
 */
export function createCallBatcher(
  client: grpc.Client,
  opts: { target: string; metrics?: { registry: Registry; prefix: string } } & Omit<CallBatcherOptions, 'sizes'>,
): CallBatcher {
  const sizes = opts.metrics
    ? { histogram: metricsFor(opts.metrics.registry, opts.metrics.prefix).batchCalls, service: opts.target }
    : undefined;
  return new CallBatcher(client, { maxCalls: opts.maxCalls, maxInFlight: opts.maxInFlight, sizes });
}

export { grpc, AppError };
