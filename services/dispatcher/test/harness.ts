// Test fixture: a private NATS server, a fresh database, the real applications and webhooks
// services in-process, HTTP receivers on loopback, and the dispatcher in-process or as a child
// process (for kill -9).
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import * as applications from '@switchboard/applications';
import { createAccount } from '@switchboard/applications/accounts';
import * as webhooks from '@switchboard/webhooks';
import { connectNats, createLogger, type NatsHandle } from '@switchboard/platform';
import { applicationsClient, webhooksClient, type ApplicationsClient, type WebhooksClient } from '@switchboard/proto';
import { createTestDatabase, freePort, newSecretsKey, randomName, startNatsServer, waitFor, type NatsServer, type TestDatabase } from '@switchboard/testing';
import { createApp, loadConfig, type DispatcherApp } from '../src/app';
import { generateSecret } from '../src/delivery/signing';

const LEVEL = process.env.TEST_LOG_LEVEL ?? 'silent';
const DISPATCHER_DIR = fileURLToPath(new URL('..', import.meta.url));

export const SESSION_SECRET = generateSecret();

/** Environment every dispatcher of the tests starts with (short schedule, loopback allowed). */
export const TEST_DISPATCHER_ENV = {
  DELIVERY_RETRY_SCHEDULE: '200ms,400ms,800ms',
  DELIVERY_ALLOWED_CIDRS: '127.0.0.0/8,::1/128',
  DELIVERY_TIMEOUT_MS: '3000',
  JETSTREAM_ACK_WAIT: '8s',
  DELIVERY_BREAKER_VOLUME_THRESHOLD: '5',
  DELIVERY_BREAKER_RESET_TIMEOUT: '1s',
  DELIVERY_BREAKER_WINDOW: '5s',
  SESSION_SIGNING_SECRET: SESSION_SECRET,
  RECORD_FLUSH_INTERVAL: '20ms',
  HOST: '127.0.0.1',
  LOG_LEVEL: LEVEL,
};

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  body: any;
  at: number;
}

export type Responder = (req: Received, count: number) => number | { status: number; headers?: Record<string, string> } | 'hang';

export interface Receiver {
  port: number;
  url(path: string): string;
  received: Received[];
  on(path: string, responder: Responder): void;
  /** Requests for a path (or all). */
  at(path?: string): Received[];
  /** Distinct webhook-id values received on a path (or all) with a 2xx answer. */
  delivered(path?: string): Set<string>;
  close(): Promise<void>;
  /** Listens again on the same port. */
  reopen(): Promise<void>;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  const received: Received[] = [];
  const responders = new Map<string, Responder>();
  const counts = new Map<string, number>();
  const ok = new Map<string, Set<string>>();
  const sockets = new Set<Socket>();
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = undefined;
      }
      const path = (req.url ?? '/').split('?')[0]!;
      const r: Received = { path, headers: req.headers, raw, body, at: Date.now() };
      received.push(r);
      const n = (counts.get(path) ?? 0) + 1;
      counts.set(path, n);
      const answer = responders.get(path)?.(r, n) ?? 200;
      if (answer === 'hang') return;
      const { status, headers } = typeof answer === 'number' ? { status: answer, headers: {} } : answer;
      if (status >= 200 && status < 300) {
        let s = ok.get(path);
        if (!s) ok.set(path, (s = new Set()));
        s.add(String(req.headers['webhook-id']));
      }
      res.writeHead(status, headers);
      res.end();
    });
  };
  let server: Server;
  const listen = async (p: number) => {
    server = createServer(handler);
    server.on('connection', (s: Socket) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(p, '127.0.0.1', () => resolve());
    });
    return (server.address() as AddressInfo).port;
  };
  const actualPort = await listen(port);
  return {
    port: actualPort,
    url: (path) => `http://127.0.0.1:${actualPort}${path}`,
    received,
    on: (path, responder) => void responders.set(path, responder),
    at: (path) => (path ? received.filter((r) => r.path === path) : received),
    delivered: (path) => {
      if (path) return ok.get(path) ?? new Set();
      const all = new Set<string>();
      for (const s of ok.values()) for (const id of s) all.add(id);
      return all;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
    async reopen() {
      await listen(actualPort);
    },
  };
}

export interface Harness {
  nats: NatsServer;
  db: TestDatabase;
  bus: NatsHandle;
  apps: ApplicationsClient;
  hooks: WebhooksClient;
  /** Environment pointing a dispatcher at this stack. */
  env: Record<string, string>;
  newAccount(): Promise<string>;
  newApplication(accountId: string, urls: { voiceUrl?: string; messagingUrl?: string }): Promise<string>;
  /** Creates a subscription; returns its id and secret. */
  subscribe(accountId: string, fields: { event: string; resource: string; targetUrl: string; applicationId?: string; name?: string; payload?: unknown; enabled?: boolean }): Promise<{ id: string; secret: string }>;
  publish(subject: string, body: unknown): Promise<number>;
  /** Stops the webhooks service (its gRPC port refuses connections until startWebhooks). */
  stopWebhooks(): Promise<void>;
  startWebhooks(): Promise<void>;
  startDispatcher(env?: Record<string, string>): Promise<RunningDispatcher>;
  spawnDispatcher(env?: Record<string, string>): Promise<ChildDispatcher>;
  stop(): Promise<void>;
}

export interface RunningDispatcher {
  app: DispatcherApp;
  opsPort: number;
  metrics(): Promise<string>;
  stop(): Promise<void>;
}

export interface ChildDispatcher {
  child: ChildProcess;
  opsPort: number;
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

export async function startHarness(): Promise<Harness> {
  const [db, nats] = await Promise.all([createTestDatabase(), startNatsServer()]);
  const [appsGrpc, appsOps, whGrpc, whOps] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  const common = {
    DATABASE_URL: db.url,
    NATS_URL: nats.url,
    LOG_LEVEL: LEVEL,
    HOST: '127.0.0.1',
    DELIVERY_ALLOWED_CIDRS: '127.0.0.0/8,::1/128',
    SECRETS_KEY: newSecretsKey(),
  };
  const appsApp = await applications.createApp(
    applications.loadConfig({ ...common, GRPC_PORT: String(appsGrpc), OPS_PORT: String(appsOps) }),
    createLogger('applications', LEVEL),
  );
  await appsApp.start();
  const newWebhooks = () =>
    webhooks.createApp(
      webhooks.loadConfig({ ...common, GRPC_PORT: String(whGrpc), OPS_PORT: String(whOps), APPLICATIONS_GRPC_URL: `127.0.0.1:${appsGrpc}` }),
      createLogger('webhooks', LEVEL),
    );
  let whApp: webhooks.WebhooksApp | undefined = await newWebhooks();
  await whApp.start();
  const apps = applicationsClient(`127.0.0.1:${appsGrpc}`);
  const hooks = webhooksClient(`127.0.0.1:${whGrpc}`);
  const bus = await connectNats(nats.url, createLogger('test', LEVEL), 'test');
  const env: Record<string, string> = {
    ...TEST_DISPATCHER_ENV,
    NATS_URL: nats.url,
    APPLICATIONS_GRPC_URL: `127.0.0.1:${appsGrpc}`,
    WEBHOOKS_GRPC_URL: `127.0.0.1:${whGrpc}`,
  };
  const dispatchers = new Set<{ stop(): Promise<void> }>();

  return {
    nats,
    db,
    bus,
    apps,
    hooks,
    env,
    async newAccount() {
      const a = await createAccount(appsApp.orm.em.fork(), randomName('user'), `pw-${randomName('pw')}`);
      return a.id;
    },
    async newApplication(accountId, urls) {
      const { application } = await apps.createApplication({ accountId, name: 'app', ...urls });
      return application!.id;
    },
    async subscribe(accountId, f) {
      const res = await hooks.createSubscription({
        accountId,
        applicationId: f.applicationId ?? '',
        event: f.event,
        resource: f.resource,
        targetUrl: f.targetUrl,
        ...(f.name !== undefined ? { name: f.name } : {}),
        ...(f.payload !== undefined ? { payloadJson: JSON.stringify(f.payload) } : {}),
        ...(f.enabled !== undefined ? { enabled: f.enabled } : {}),
      });
      return { id: res.subscription!.id, secret: res.secret };
    },
    async publish(subject, body) {
      const ack = await bus.js.publish(subject, typeof body === 'string' ? body : JSON.stringify(body));
      return ack.seq;
    },
    async stopWebhooks() {
      await whApp?.stop();
      whApp = undefined;
    },
    async startWebhooks() {
      if (whApp) return;
      whApp = await newWebhooks();
      await whApp.start();
    },
    async startDispatcher(more = {}) {
      const ops = await freePort();
      const app = createApp(loadConfig({ ...env, OPS_PORT: String(ops), ...more }));
      const { opsPort } = await app.start();
      const d: RunningDispatcher = {
        app,
        opsPort,
        metrics: async () => (await fetch(`http://127.0.0.1:${opsPort}/metrics`)).text(),
        async stop() {
          if (!dispatchers.delete(d)) return;
          await app.stop();
        },
      };
      dispatchers.add(d);
      return d;
    },
    async spawnDispatcher(more = {}) {
      const opsPort = await freePort();
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: DISPATCHER_DIR,
        env: { ...process.env, ...env, OPS_PORT: String(opsPort), ...more },
        stdio: ['ignore', LEVEL === 'silent' ? 'ignore' : 'inherit', 'inherit'],
      });
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      await waitFor(
        async () => {
          if (child.exitCode !== null) throw new Error(`dispatcher exited with ${child.exitCode}`);
          const res = await fetch(`http://127.0.0.1:${opsPort}/readyz`);
          return res.ok;
        },
        { timeoutMs: 30_000, intervalMs: 100, what: 'dispatcher child ready' },
      );
      const d: ChildDispatcher = {
        child,
        opsPort,
        async kill9() {
          dispatchers.delete(d);
          child.kill('SIGKILL');
          await exited;
        },
        async stop() {
          if (!dispatchers.delete(d)) return;
          if (child.exitCode === null) child.kill('SIGTERM');
          await exited;
        },
      };
      dispatchers.add(d);
      return d;
    },
    async stop() {
      for (const d of [...dispatchers]) await d.stop().catch(() => undefined);
      apps.close();
      hooks.close();
      await bus.close();
      await whApp?.stop();
      await appsApp.stop();
      await nats.destroy();
      await db.drop();
    },
  };
}

/** A CONTRACTS 4 notification event. */
export function cdrEvent(accountId: string, fields: Partial<{ id: string; applicationId: string; resource: string; data: unknown }> = {}) {
  return {
    id: fields.id ?? randomName('evt'),
    accountId,
    ...(fields.applicationId ? { applicationId: fields.applicationId } : {}),
    resource: fields.resource ?? 'call',
    timestamp: '2025-03-01T10:00:00.000Z',
    data: fields.data ?? { durationSeconds: 42 },
  };
}

/** The value of one sample of a metric in Prometheus text format (0 when absent). */
/** The value of a metric series (the sum, where the labels given match several). */
export { metricSum as metricValue } from '@switchboard/testing';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
