// Tracing end to end, in one process with the SDK's in-memory exporter: a GET through the real
// gateway is one trace down to the applications service's Postgres query, and a session event
// published to JetStream is one trace through the dispatcher to the POST a receiver gets.
// The services are imported only after startTracing, as their main modules do.
import { spawn } from 'node:child_process';
import { get, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, SpanKind, SpanStatusCode, trace, TraceFlags } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { ConfigError } from '@switchboard/config';
import { loadTracingConfig, startTracing, tracingEnabled, type Tracing } from '@switchboard/observability/tracing';

const exporter = new InMemorySpanExporter();
let tracing: Tracing;
let off: Tracing;
let testing: typeof import('../support');

beforeAll(async () => {
  // Without OTEL_EXPORTER_OTLP_ENDPOINT nothing starts.
  off = await startTracing({ serviceName: 'test', env: {} });
  // Every trace recorded (the default samples a tenth of new traces).
  tracing = await startTracing({
    serviceName: 'test',
    exporter,
    env: { OTEL_TRACES_SAMPLER: 'parentbased_always_on' },
  });
  testing = await import('../support');
});
afterAll(async () => tracing?.shutdown());

const spans = () => exporter.getFinishedSpans();
const idOf = (s: ReadableSpan) => s.spanContext().spanId;
const traceOf = (s: ReadableSpan) => s.spanContext().traceId;
/** The gateway's span of an incoming request (made by the platform, not an instrumentation). */
const isHttpServer = (s: ReadableSpan) =>
  s.kind === SpanKind.SERVER && s.attributes['http.request.method'] !== undefined;
/** What made a span and its kind: 'http SERVER', 'grpc CLIENT', 'pg CLIENT'... */
const label = (s: ReadableSpan) =>
  `${s.attributes['rpc.system'] === 'grpc' ? 'grpc' : isHttpServer(s) ? 'http' : s.instrumentationScope.name.replace('@opentelemetry/instrumentation-', '')} ${SpanKind[s.kind]}`;

/** The span, its parent, its parent's parent... as far as recorded spans go. */
function ancestry(span: ReadableSpan): ReadableSpan[] {
  const byId = new Map(spans().map((s) => [idOf(s), s]));
  const chain = [span];
  for (let p = span.parentSpanContext?.spanId; p && byId.has(p); p = byId.get(p)!.parentSpanContext?.spanId)
    chain.push(byId.get(p)!);
  return chain;
}

function findSpan(pred: (s: ReadableSpan) => boolean, what: string): Promise<ReadableSpan> {
  return testing.waitFor(() => spans().find(pred), { what, timeoutMs: 15_000 });
}

type GatewayStack = import('../support').Services<{ gateway: true }>;

/**
 * A stack with the gateway and the services' `env`, started before the tests of the enclosing
 * describe block and stopped after them; `onReady` receives it.
 */
function useGatewayStack(env: Record<string, string>, onReady: (stack: GatewayStack) => void): void {
  let stack: GatewayStack | undefined;
  beforeAll(async () => {
    stack = await testing.startServices({ gateway: true, env });
    onReady(stack);
  });
  afterAll(async () => stack?.stop());
}

/** Creates an application named `name` for `account` through the gateway of `stack` (a 200); its path. */
async function newApplication(
  stack: GatewayStack,
  account: import('../support').TestAccount,
  name: string,
): Promise<string> {
  const created = await stack.request(account, 'POST', '/v1/applications/', {
    name,
    voiceUrl: 'https://example.com/voice',
  });
  expect(created.status).toBe(200);
  return new URL(((await created.json()) as { href: string }).href).pathname;
}

describe('configuration', () => {
  it('when OTEL_EXPORTER_OTLP_ENDPOINT is not set, then tracing stays off', () => {
    expect(off.enabled).toBe(false);
    expect(tracing.enabled).toBe(true);
    expect(tracingEnabled()).toBe(true);
    expect(loadTracingConfig({}).OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
  });

  it('when an OTEL_* value is malformed, then a ConfigError names it', () => {
    expect(() => loadTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(ConfigError);
    expect(() => loadTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'ftp://collector:4318' })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT/,
    );
    expect(() => loadTracingConfig({ OTEL_TRACES_SAMPLER_ARG: '2' })).toThrow(/OTEL_TRACES_SAMPLER_ARG/);
    expect(() => loadTracingConfig({ OTEL_SERVICE_NAME: 'has spaces' })).toThrow(/OTEL_SERVICE_NAME/);
    expect(() => loadTracingConfig({ OTEL_TRACES_SAMPLER: 'jaeger_remote' })).toThrow(/OTEL_TRACES_SAMPLER/);
    expect(() => loadTracingConfig({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL/);
    // A misspelt or unknown instrumentation is refused, not ignored.
    expect(() => loadTracingConfig({ OTEL_NODE_DISABLED_INSTRUMENTATIONS: 'pg,postgres' })).toThrow(
      /OTEL_NODE_DISABLED_INSTRUMENTATIONS.*unknown instrumentation "postgres": known are pg, undici/s,
    );
    // The defaults: a tenth of new traces, an upstream decision followed; protobuf exports.
    expect(loadTracingConfig({})).toMatchObject({
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: 0.1,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    });
    expect(
      loadTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_TRACES_SAMPLER_ARG: '0.25' }),
    ).toMatchObject({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      OTEL_TRACES_SAMPLER_ARG: 0.25,
    });
    expect(loadTracingConfig({}).OTEL_NODE_DISABLED_INSTRUMENTATIONS).toEqual([]);
    expect(
      loadTracingConfig({ OTEL_NODE_DISABLED_INSTRUMENTATIONS: ' pg , undici,' }).OTEL_NODE_DISABLED_INSTRUMENTATIONS,
    ).toEqual(['pg', 'undici']);
  });

  /** The spans a process of its own records for one query it makes within a span of its own (fixtures/query-spans.ts). */
  async function querySpans(env: Record<string, string>): Promise<string[]> {
    const child = spawn(
      process.execPath,
      [
        '--conditions=@switchboard/source',
        '--import',
        'tsx',
        fileURLToPath(new URL('./fixtures/query-spans.ts', import.meta.url)),
      ],
      {
        env: {
          ...process.env,
          DATABASE_URL: testing.ADMIN_DATABASE_URL,
          OTEL_TRACES_SAMPLER: 'parentbased_always_on',
          ...env,
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    expect(code).toBe(0);
    return JSON.parse(out.trim().split('\n').pop()!) as string[];
  }

  it('when OTEL_NODE_DISABLED_INSTRUMENTATIONS names pg, then a process records no Postgres query spans, and its own spans still', async () => {
    const [traced, withoutPg] = await Promise.all([
      querySpans({}),
      querySpans({ OTEL_NODE_DISABLED_INSTRUMENTATIONS: 'pg' }),
    ]);
    expect(traced).toEqual([expect.stringMatching(/^pg\.query/), 'work']);
    expect(withoutPg).toEqual(['work']);
  }, 60_000);
});

describe('a request through the gateway', () => {
  let stack: GatewayStack;
  // The test's requests come as through the ingress: a trusted proxy, whose trace context counts.
  useGatewayStack({ TRUSTED_PROXIES: '127.0.0.0/8,::1/128' }, (s) => (stack = s));

  it('when GET /v1/applications/:id is served, then gateway, gRPC and the Postgres query are one trace', async () => {
    const alice = await stack.createAccount('alice');
    const path = await newApplication(stack, alice, 'traced');
    exporter.reset();

    const res = await stack.request(alice, 'GET', path);
    expect(res.status).toBe(200);

    // The gateway's server span for the route, and the query the applications service ran for it.
    const server = await findSpan(
      (s) => isHttpServer(s) && s.attributes['http.route'] !== undefined,
      'gateway server span',
    );
    expect(String(server.attributes['http.route'])).toContain('/applications/:id');
    expect(server.name).toBe(`GET ${String(server.attributes['http.route'])}`);
    expect(server.attributes).toMatchObject({
      'http.request.method': 'GET',
      'url.path': path,
      'http.response.status_code': 200,
    });
    const query = await findSpan(
      (s) =>
        traceOf(s) === traceOf(server) &&
        s.instrumentationScope.name.endsWith('instrumentation-pg') &&
        s.name.startsWith('pg.query'),
      'postgres query span',
    );
    const chain = ancestry(query).map(label);
    // pg <- gRPC server (applications) <- gRPC client (gateway) <- HTTP server (gateway), nothing
    // between, <- the test's own fetch (undici, traced in this process like the dispatcher's POSTs).
    expect(chain).toEqual(['pg CLIENT', 'grpc SERVER', 'grpc CLIENT', 'http SERVER', 'undici CLIENT']);
    expect(ancestry(query)[3]).toBe(server);
    const [, grpcServer, grpcClient] = ancestry(query);
    for (const rpc of [grpcServer!, grpcClient!]) {
      expect(rpc.name).toBe('switchboard.applications.v1.ApplicationsService/GetApplication');
      expect(rpc.attributes).toMatchObject({
        'rpc.system': 'grpc',
        'rpc.service': 'switchboard.applications.v1.ApplicationsService',
        'rpc.method': 'GetApplication',
        'rpc.grpc.status_code': 0,
      });
      expect(rpc.status.code).toBe(SpanStatusCode.UNSET);
    }
  });

  it('when a gRPC call fails, then both its spans carry the status code, and only a fault of the server is an error on the server span', async () => {
    const bob = await stack.createAccount('bob');
    exporter.reset();
    // An application that does not exist: NOT_FOUND (5), the caller's mistake, not the server's.
    const res = await stack.request(bob, 'GET', '/v1/applications/999999999');
    expect(res.status).toBe(404);
    const client = await findSpan(
      (s) => s.kind === SpanKind.CLIENT && s.attributes['rpc.method'] === 'GetApplication',
      'gRPC client span',
    );
    const server = await findSpan(
      (s) => s.kind === SpanKind.SERVER && s.attributes['rpc.method'] === 'GetApplication',
      'gRPC server span',
    );
    expect(server.parentSpanContext?.spanId).toBe(idOf(client));
    expect(client.attributes['rpc.grpc.status_code']).toBe(5);
    expect(server.attributes['rpc.grpc.status_code']).toBe(5);
    expect(client.status.code).toBe(SpanStatusCode.ERROR);
    expect(server.status.code).toBe(SpanStatusCode.UNSET);
  });

  it("when a request has a body, then what the route does after reading it is still in the request's trace", async () => {
    const dave = await stack.createAccount('dave');
    exporter.reset();
    await newApplication(stack, dave, 'traced');
    const client = await findSpan(
      (s) => s.kind === SpanKind.CLIENT && s.attributes['rpc.method'] === 'CreateApplication',
      'gRPC client span',
    );
    expect(ancestry(client).map(label).slice(0, 2)).toEqual(['grpc CLIENT', 'http SERVER']);
    expect(ancestry(client)[1]!.attributes['http.route']).toBe('/v1/applications');
  });

  it('when an internet client (not a trusted proxy) sends the traceparent of a trace it did not sample, then the gateway ignores it and its own sampler records a new trace', async () => {
    const dan = await stack.createAccount('dan');
    const path = await newApplication(stack, dan, 'edge');
    // A gateway that trusts no proxy: its peers are the internet.
    const gateway = await import('@switchboard/gateway');
    const edge = gateway.createApp(gateway.loadConfig({ ...stack.env, TRUSTED_PROXIES: '', PORT: '0' }));
    const { port } = await edge.start();
    exporter.reset();
    const unsampled = '5bf92f3577b34da6a3ce929d0e0e4737';
    // node:http, which nothing instruments: the traceparent goes as written.
    const status = await new Promise<number>((resolve, reject) => {
      get(
        {
          host: '127.0.0.1',
          port,
          path,
          headers: { authorization: dan.authorization, traceparent: `00-${unsampled}-00f067aa0ba902b7-00` },
        },
        (r) => {
          r.resume();
          r.on('end', () => resolve(r.statusCode ?? 0));
        },
      ).on('error', reject);
    }).finally(() => edge.stop());
    expect(status).toBe(200);
    const server = await findSpan(
      (s) => isHttpServer(s) && String(s.attributes['http.route']).endsWith('/applications/:id'),
      "the gateway's span",
    );
    expect(traceOf(server)).not.toBe(unsampled);
    expect(server.parentSpanContext?.spanId).toBeUndefined();
    expect(spans().filter((s) => traceOf(s) === unsampled)).toEqual([]);
  });

  it('when a request arrives through a trusted proxy in a trace its caller did not sample, then nothing of it is recorded, in the gateway or behind it', async () => {
    const erin = await stack.createAccount('erin');
    const path = await newApplication(stack, erin, 'traced');
    exporter.reset();
    // The test's fetch (traced by the undici instrumentation) sends a traceparent of this unsampled trace (flag 00).
    const unsampled = '4bf92f3577b34da6a3ce929d0e0e4736';
    const caller = trace.setSpanContext(context.active(), {
      traceId: unsampled,
      spanId: '00f067aa0ba902b7',
      traceFlags: TraceFlags.NONE,
      isRemote: true,
    });
    const res = await context.with(caller, () => stack.request(erin, 'GET', path));
    expect(res.status).toBe(200);
    // A sampled request afterwards, so that the spans of the first had the time to arrive.
    await stack.request(erin, 'GET', path);
    const server = await findSpan(
      (s) => s.kind === SpanKind.SERVER && s.attributes['rpc.method'] === 'GetApplication',
      "the sampled request's gRPC server span",
    );
    // The applications service followed the gateway's decision (passed on in the call's metadata):
    // one GetApplication recorded, the sampled request's.
    expect(
      spans().filter((s) => s.kind === SpanKind.SERVER && s.attributes['rpc.method'] === 'GetApplication'),
    ).toEqual([server]);
    expect(spans().filter((s) => traceOf(s) === unsampled)).toEqual([]);
  });

  it('when the gateway checks its dependencies for readiness, then the gRPC health probes make no spans', async () => {
    exporter.reset();
    // The readiness check calls grpc.health.v1 Check on the applications and webhooks services
    // (this stack has no webhooks service: that check fails, the one of applications answers).
    const res = await fetch(`http://127.0.0.1:${stack.gateway.opsPort}/readyz`);
    expect(await res.json()).toMatchObject({ checks: { applications: true } });
    // A traced request afterwards, so that spans had the time to arrive.
    const carol = await stack.createAccount('carol');
    await stack.request(carol, 'GET', '/v1/applications/');
    await findSpan((s) => s.attributes['rpc.method'] === 'ListApplications' && s.kind === SpanKind.SERVER, 'list span');
    expect(spans().filter((s) => String(s.attributes['rpc.service']).startsWith('grpc.health'))).toEqual([]);
    expect(
      spans().filter((s) => String(s.attributes['http.route'] ?? s.attributes['http.target'] ?? '').includes('readyz')),
    ).toEqual([]);
  });
  it('when the gateway runs as its own process (it keeps no active context), then its spans and the call behind it are still one trace', async () => {
    const sink = await startOtlpSink();
    const [port, ops] = [await testing.freePort(), await testing.freePort()];
    const gateway = testing.serviceProcess('gateway', {
      env: {
        ...stack.env,
        ...testing.portEnv('gateway', { api: port, ops }),
        OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
        OTEL_TRACES_SAMPLER: 'parentbased_always_on',
        OTEL_BSP_SCHEDULE_DELAY: '50',
      },
      // Up is enough: this stack has no webhooks service, so the gateway's /readyz never answers 200.
      readyPath: '/healthz',
    });
    const starting = gateway.start();
    // Awaited below, after the account is made; a failure to start is reported there.
    starting.catch(() => undefined);
    try {
      const frank = await stack.createAccount('frank');
      const path = await newApplication(stack, frank, 'traced');
      await starting;
      exporter.reset();
      const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: frank.authorization } });
      expect(res.status).toBe(200);

      // The gateway's spans, exported over OTLP: the request's server span and, under it, the call's client span.
      const [server, client] = await testing.waitFor(
        () => {
          const server = sink.spans.find(
            (s) =>
              s.service === 'gateway' &&
              s.kind === 2 &&
              s.name.startsWith('GET ') &&
              s.name.endsWith('/v1/applications/:id'),
          );
          const client = sink.spans.find(
            (s) => s.service === 'gateway' && s.kind === 3 && s.name.endsWith('/GetApplication'),
          );
          return server && client && ([server, client] as const);
        },
        { what: 'exported gateway spans', timeoutMs: 15_000 },
      );
      expect(client.traceId).toBe(server.traceId);
      expect(client.parentSpanId).toBe(server.spanId);
      // The applications service (this process) continued the call's span, down to its query.
      const grpcServer = await findSpan(
        (s) => s.kind === SpanKind.SERVER && s.parentSpanContext?.spanId === client.spanId,
        "the call's server span",
      );
      expect(traceOf(grpcServer)).toBe(server.traceId);
      expect(grpcServer.attributes['rpc.method']).toBe('GetApplication');
      const query = await findSpan(
        (s) =>
          s.instrumentationScope.name.endsWith('instrumentation-pg') &&
          s.parentSpanContext?.spanId === idOf(grpcServer),
        'postgres query span',
      );
      expect(ancestry(query).map(label)).toEqual(['pg CLIENT', 'grpc SERVER']);
    } finally {
      await starting.catch(() => undefined);
      await gateway.stop();
      await sink.close();
    }
    // Starting a process under tsx takes a while on a busy machine.
  }, 90_000);
});

describe('reads coalesced into one query', () => {
  let stack: GatewayStack;
  useGatewayStack({ GRPC_BATCH_IN_FLIGHT: '1' }, (s) => (stack = s));

  it("when concurrent GETs are read by one coalesced query, then every request's trace leads to it: its parent, or a link from it", async () => {
    const carol = await stack.createAccount('carol');
    const paths: string[] = [];
    for (const name of ['one', 'two', 'three']) {
      paths.push(await newApplication(stack, carol, name));
    }
    exporter.reset();
    // At once, through a gateway that batches whatever waits behind one call out: the service gets
    // batches of calls and reads their applications together.
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => stack.request(carol, 'GET', paths[i % paths.length]!)),
    );
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
    const isGet = (s: ReadableSpan) => s.kind === SpanKind.SERVER && s.attributes['rpc.method'] === 'GetApplication';
    const isQuery = (s: ReadableSpan) =>
      s.instrumentationScope.name.endsWith('instrumentation-pg') && s.name.startsWith('pg.query');
    await testing.waitFor(() => spans().filter(isGet).length >= 60 || undefined, {
      what: '60 GetApplication server spans',
      timeoutMs: 15_000,
    });
    const gets = spans().filter(isGet);
    const getIds = new Set(gets.map(idOf));
    // The reads of the applications (the account's credentials are read too, once).
    const queries = spans().filter((s) => isQuery(s) && getIds.has(s.parentSpanContext?.spanId ?? ''));
    // The reads were coalesced (fewer queries than calls), as the case is about.
    expect(queries.length).toBeLessThan(gets.length);
    const served = new Set(
      queries.flatMap((q) => [q.parentSpanContext?.spanId, ...q.links.map((l) => l.context.spanId)]),
    );
    expect(gets.filter((g) => !served.has(idOf(g))).map(idOf)).toEqual([]);
    // A query that served several calls says how many (here all recorded: itself and its links).
    for (const q of queries)
      expect(q.attributes['db.operation.batch.size']).toBe(q.links.length > 0 ? q.links.length + 1 : undefined);
  });
});

describe('a session launched through the Session API', () => {
  let stack: GatewayStack;
  useGatewayStack({}, (s) => (stack = s));

  it("when a token launches a session, then its sessions.new is published in the request's trace, and the span keeps no token", async () => {
    const alice = await stack.createAccount('launch');
    const appId = (await newApplication(stack, alice, 'traced')).split('/').pop()!;
    const claimed = await stack.request(alice, 'POST', `/v1/applications/${appId}/addresses`, {
      type: 'token',
      channel: 'voice',
    });
    const token = ((await claimed.json()) as { href: string }).href.split('/').pop()!;
    exporter.reset();

    const res = await stack.request(undefined, 'GET', `/1.0/sessions?action=create&token=${token}&x=1`, undefined, {
      accept: 'application/json',
    });
    expect(res.status).toBe(200);
    const server = await findSpan(
      (s) => s.kind === SpanKind.SERVER && s.attributes['http.route'] === '/1.0/sessions/',
      'gateway server span',
    );
    const publish = await findSpan(
      (s) => s.kind === SpanKind.PRODUCER && s.name === 'publish sessions.new' && traceOf(s) === traceOf(server),
      'publish span in the same trace',
    );
    expect(ancestry(publish)).toContain(server);
    expect(String(server.attributes['url.query'])).toContain('token=***');
    // Every span of the services (the test's own fetch, an undici client span here, shows what it sent).
    for (const span of spans().filter(
      (x) => !(x.kind === SpanKind.CLIENT && x.instrumentationScope.name.endsWith('undici')),
    )) {
      expect(`${span.name} ${JSON.stringify(span.attributes)}`, span.name).not.toContain(token);
    }
  });
});

describe('an event through the dispatcher', () => {
  let harness: typeof import('../../services/dispatcher/test/harness');
  let h: import('../../services/dispatcher/test/harness').Harness;
  let rx: import('../support').Receiver;
  let inproc: import('../support').RunningDispatcher;
  beforeAll(async () => {
    harness = await import('../../services/dispatcher/test/harness');
    h = await harness.startHarness();
    rx = await testing.startReceiver();
    inproc = await h.startDispatcher();
  });
  afterAll(async () => {
    await h?.stop();
    await rx?.close();
  });

  it('when a session is published to JetStream, then the publish, the dispatcher and its POST are one trace; the customer gets no traceparent and the span keeps no query string', async () => {
    const account = await h.newAccount();
    const app = await h.newApplication(account, { voiceUrl: rx.url('/voice?key=customer-secret') });
    exporter.reset();

    // The publisher's own span: what an upstream system calling in would have as its context.
    const root = trace.getTracer('test').startSpan('session arrives');
    await context.with(trace.setSpan(context.active(), root), () =>
      h.publish('sessions.new', { applicationId: app, session: { from: { id: '+14155550100', channel: 'VOICE' } } }),
    );
    root.end();
    const [req] = await testing.waitFor(() => rx.at('/voice').length > 0 && rx.at('/voice'), { what: 'session POST' });
    const traceId = root.spanContext().traceId;

    // The customer's host is told nothing of our trace, and the span does not keep its query.
    expect(req!.headers.traceparent).toBeUndefined();
    expect(req!.headers.tracestate).toBeUndefined();
    const post = await findSpan(
      (s) =>
        s.kind === SpanKind.CLIENT &&
        s.instrumentationScope.name.endsWith('undici') &&
        String(s.attributes['url.path']).endsWith('/voice'),
      'POST span',
    );
    expect(JSON.stringify(post.attributes)).not.toContain('customer-secret');
    expect(traceOf(post)).toBe(traceId);
    const chain = ancestry(post);
    const consume = chain.find((s) => s.kind === SpanKind.CONSUMER);
    expect(consume?.name).toBe('process sessions.new');
    expect(consume?.attributes['messaging.consumer.group.name']).toBeTruthy();
    const publish = chain.find((s) => s.kind === SpanKind.PRODUCER);
    expect(publish?.name).toBe('publish sessions.new');
    expect(chain.indexOf(publish!)).toBeGreaterThan(chain.indexOf(consume!));
    expect(chain.at(-1)).toBe(spans().find((s) => idOf(s) === root.spanContext().spanId));
    // The dispatcher's lookup of the application went over gRPC within the same trace.
    expect(
      spans().some(
        (s) => traceOf(s) === traceId && s.kind === SpanKind.SERVER && s.name.includes('ApplicationsService'),
      ),
    ).toBe(true);
  });

  it('when the dispatcher runs as its own process with OTEL_EXPORTER_OTLP_ENDPOINT, then it exports its spans of the trace over OTLP/HTTP (protobuf) as service dispatcher', async () => {
    const sink = await startOtlpSink();
    try {
      const account = await h.newAccount();
      const app = await h.newApplication(account, { voiceUrl: rx.url('/voice-child') });
      // The child alone consumes, so it is the one that handles the event.
      await inproc.stop();
      const child = await h.spawnDispatcher({ OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_BSP_SCHEDULE_DELAY: '50' });
      const root = trace.getTracer('test').startSpan('session arrives');
      await context.with(trace.setSpan(context.active(), root), () =>
        h.publish('sessions.new', { applicationId: app, session: { from: { id: '+14155550100', channel: 'VOICE' } } }),
      );
      root.end();
      await testing.waitFor(() => rx.at('/voice-child').length > 0, { what: 'session POST from the child' });
      const traceId = root.spanContext().traceId;
      const exported = await testing.waitFor(
        () => {
          const mine = sink.spans.filter((s) => s.traceId === traceId);
          return (
            mine.some((s) => s.name === 'process sessions.new') &&
            mine.some((s) => s.kind === 3 && s.name === 'POST') &&
            mine
          );
        },
        { what: 'exported dispatcher spans', timeoutMs: 15_000 },
      );
      expect(new Set(exported.map((s) => s.service))).toEqual(new Set(['dispatcher']));
      await child.stop();
    } finally {
      await sink.close();
    }
    // Starting a process under tsx takes a while on a busy machine.
  }, 90_000);
});

/** An OTLP/HTTP collector stand-in on loopback that keeps the spans posted to /v1/traces (protobuf or JSON). */
async function startOtlpSink(): Promise<{
  url: string;
  spans: import('../support').ExportedSpan[];
  close(): Promise<void>;
}> {
  const spans: import('../support').ExportedSpan[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces')
        spans.push(...testing.exportedSpans(Buffer.concat(chunks), req.headers['content-type']));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
