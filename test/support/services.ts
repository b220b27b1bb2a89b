// Brings up the real services for component tests: the ones a test asks for, in-process on free
// ports, against a fresh database on the shared Postgres (or the one given) and a private NATS
// server (or the one given). Dispatchers start in-process, or as a child process a test can kill -9.
// Services are loaded only when asked for, so a stack of applications alone does not load the rest.
import type { ChildProcess } from 'node:child_process';
import type { ApplicationsApp } from '@switchboard/applications';
import type { DispatcherApp } from '@switchboard/dispatcher';
import type { GatewayApp } from '@switchboard/gateway';
import type { WebhooksApp } from '@switchboard/webhooks';
import { connectNats, type NatsHandle } from '@switchboard/messaging';
import { createLogger, type Logger } from '@switchboard/observability';
import { applicationsClient, webhooksClient, type ApplicationsClient, type WebhooksClient } from '@switchboard/proto';
import { createTestDatabase, freePort, newSecretsKey, randomName, startNatsServer, type NatsServer } from './infra';
import { portEnv, serviceProcess, startInProcess } from './launcher';
import { assertDocumented } from './openapi';

const LEVEL = process.env.TEST_LOG_LEVEL ?? 'silent';

export interface ServicesOptions {
  /** Start the applications service (default true; every other service needs one). */
  applications?: boolean;
  webhooks?: boolean;
  gateway?: boolean;
  /** Start one dispatcher in-process (more with startDispatcher / spawnDispatcher). */
  dispatcher?: boolean;
  /** Extra environment for every service's config. */
  env?: Record<string, string>;
  /** Extra environment for every dispatcher (after `env`). */
  dispatcherEnv?: Record<string, string>;
  /** Use this database URL instead of a fresh database on the shared server. */
  databaseUrl?: string;
  /** Use this NATS server instead of a private one (it is left running at stop). */
  nats?: NatsServer;
  /** The logger of each in-process service (default: JSON at TEST_LOG_LEVEL, silent unless set). */
  logger?: (service: 'applications' | 'webhooks' | 'gateway') => Logger;
  /** The clock of the applications service's browser sessions (default: the wall clock). */
  now?: () => Date;
}

export interface TestAccount {
  id: string;
  username: string;
  password: string;
  /** Value of the Authorization header. */
  authorization: string;
}

export interface RunningApplications {
  app: ApplicationsApp;
  client: ApplicationsClient;
  grpcPort: number;
  opsPort: number;
}

export interface RunningWebhooks {
  /** The running instance (replaced by start() after stop()). */
  app: WebhooksApp;
  client: WebhooksClient;
  grpcPort: number;
  opsPort: number;
  /** Stops the instance: its gRPC port refuses connections until start(). */
  stop(): Promise<void>;
  /** Starts a stopped instance again on the same ports (no-op while running). */
  start(): Promise<void>;
}

export interface RunningGateway {
  app: GatewayApp;
  port: number;
  /** Operations port: /healthz, /readyz, /metrics. */
  opsPort: number;
  baseUrl: string;
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

interface Common {
  databaseUrl: string;
  db: { url: string };
  nats: NatsServer;
  /** A NATS connection for the test itself (publish events, watch subjects). */
  bus: NatsHandle;
  /** Environment every service of the stack was configured with. */
  env: Record<string, string>;
  /** Publishes a JSON body on JetStream; returns the stream sequence. */
  publish(subject: string, body: unknown): Promise<number>;
  /** Starts a dispatcher in-process against the stack. */
  startDispatcher(env?: Record<string, string>): Promise<RunningDispatcher>;
  /** Starts a dispatcher as a child process (src/main.ts) against the stack, ready when it returns. */
  spawnDispatcher(env?: Record<string, string>): Promise<ChildDispatcher>;
  stop(): Promise<void>;
}

interface WithApplications {
  applications: RunningApplications;
  createAccount(prefix?: string): Promise<TestAccount>;
  /** Creates an account; returns its id. */
  newAccount(): Promise<string>;
  /** Creates an application through gRPC; returns its id. */
  newApplication(accountId: string, urls?: { voiceUrl?: string; messagingUrl?: string }): Promise<string>;
}

interface WithWebhooks {
  webhooks: RunningWebhooks;
  /** Starts one more webhooks service on its own ports (stopped with the stack). */
  startWebhooks(env?: Record<string, string>): Promise<RunningWebhooks>;
  /** Creates a subscription through gRPC; returns its id and secret. */
  subscribe(
    accountId: string,
    fields: {
      event: string;
      resource: string;
      targetUrl: string;
      applicationId?: string;
      name?: string;
      payload?: unknown;
      enabled?: boolean;
    },
  ): Promise<{ id: string; secret: string }>;
}

interface WithGateway {
  gateway: RunningGateway;
  baseUrl: string;
  /** fetch() against the gateway with the account's credentials and a JSON body; checks the response against the OpenAPI document. */
  request(
    account: TestAccount | undefined,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Response>;
  /** GETs a list and every next page its Link headers announce; returns the items of all pages in order. */
  listAll<T = Record<string, unknown>>(account: TestAccount, path: string): Promise<T[]>;
  /** Starts one more gateway replica against the same services, on a port of its own (stopped with the stack). */
  startGateway(env?: Record<string, string>): Promise<RunningGateway>;
}

/** The handles of a stack started with options O: only the services asked for are typed present. */
export type Services<O extends ServicesOptions = ServicesOptions> = Common &
  (O extends { applications: false } ? unknown : WithApplications) &
  (O extends { webhooks: true } ? WithWebhooks : unknown) &
  (O extends { gateway: true } ? WithGateway : unknown) &
  (O extends { dispatcher: true } ? { dispatcher: RunningDispatcher } : unknown);

export async function startServices<const O extends ServicesOptions>(opts: O): Promise<Services<O>> {
  const withApplications = opts.applications !== false;
  const loggerOf = opts.logger ?? ((service: string) => createLogger(service, LEVEL));
  const stoppers: Array<() => Promise<void> | void> = [];
  const stopAll = async () => {
    for (const s of stoppers.splice(0).reverse()) await s();
  };
  try {
    const [db, nats] = await Promise.all([
      opts.databaseUrl ? undefined : createTestDatabase(),
      opts.nats ?? startNatsServer(),
    ]);
    if (db) stoppers.push(() => db.drop());
    if (!opts.nats) stoppers.push(() => nats.destroy());
    const databaseUrl = opts.databaseUrl ?? db!.url;
    const [appsGrpc, appsOps, whGrpc, whOps, gwPort] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
    ]);
    const env: Record<string, string> = {
      DATABASE_URL: databaseUrl,
      NATS_URL: nats.url,
      LOG_LEVEL: LEVEL,
      HOST: '127.0.0.1',
      APPLICATIONS_GRPC_URL: `127.0.0.1:${appsGrpc}`,
      WEBHOOKS_GRPC_URL: `127.0.0.1:${whGrpc}`,
      // Seals the stored signing secrets of applications and webhooks.
      SECRETS_KEY: newSecretsKey(),
      // The test runner's lower KDF cost (vitest.config.ts), which spawned services get from the environment.
      ...(process.env.PASSWORD_SCRYPT_N ? { PASSWORD_SCRYPT_N: process.env.PASSWORD_SCRYPT_N } : {}),
      ...opts.env,
    };
    const bus = await connectNats(nats.url, createLogger('test', LEVEL), 'test');
    stoppers.push(() => bus.close());

    const services: Record<string, unknown> = {
      databaseUrl,
      db: { url: databaseUrl },
      nats,
      bus,
      env,
      async publish(subject: string, body: unknown) {
        const ack = await bus.js.publish(subject, typeof body === 'string' ? body : JSON.stringify(body));
        return ack.seq;
      },
    };

    if (withApplications) {
      const { createAccount } = await import('@switchboard/applications/accounts');
      const running = await startInProcess('applications', {
        env: { ...env, ...portEnv('applications', { grpc: appsGrpc, ops: appsOps }) },
        logger: loggerOf('applications'),
        ...(opts.now ? { now: opts.now } : {}),
      });
      stoppers.push(() => running.stop());
      const { app } = running;
      const client = applicationsClient(`127.0.0.1:${appsGrpc}`);
      stoppers.push(() => client.close());
      const create = async (prefix = 'user'): Promise<TestAccount> => {
        const username = randomName(prefix);
        const password = `pw-${randomName('secret')}`;
        const a = await createAccount(app.orm.em.fork(), username, password);
        return {
          id: a.id,
          username,
          password,
          authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`,
        };
      };
      Object.assign(services, {
        applications: { app, client, grpcPort: appsGrpc, opsPort: appsOps } satisfies RunningApplications,
        createAccount: create,
        newAccount: async () => (await create()).id,
        async newApplication(
          accountId: string,
          urls: { voiceUrl?: string; messagingUrl?: string } = { voiceUrl: 'https://example.com/voice' },
        ) {
          const { application } = await client.createApplication({ accountId, name: 'app', ...urls });
          return application!.id;
        },
      } satisfies WithApplications);
    }

    if (opts.webhooks) {
      const startWebhooks = async (
        more: Record<string, string> = {},
        ports?: { grpc: number; ops: number },
      ): Promise<RunningWebhooks> => {
        const [grpc, ops] = ports ? [ports.grpc, ports.ops] : await Promise.all([freePort(), freePort()]);
        const running = await startInProcess('webhooks', {
          env: {
            // The gateway's base URL: the hrefs of webhookDisabled notifications point there.
            PUBLIC_BASE_URL: `http://127.0.0.1:${gwPort}`,
            ...env,
            ...portEnv('webhooks', { grpc, ops }),
            ...more,
          },
          logger: loggerOf('webhooks'),
        });
        const client = webhooksClient(`127.0.0.1:${running.ports.grpc}`);
        const r: RunningWebhooks = {
          get app() {
            return running.app;
          },
          client,
          grpcPort: running.ports.grpc!,
          opsPort: running.ports.ops!,
          stop: () => running.stop(),
          start: () => running.start(),
        };
        stoppers.push(async () => {
          await r.stop();
          client.close();
        });
        return r;
      };
      const main = await startWebhooks({}, { grpc: whGrpc, ops: whOps });
      Object.assign(services, {
        webhooks: main,
        startWebhooks: (more?: Record<string, string>) => startWebhooks(more),
        async subscribe(accountId, f) {
          const res = await main.client.createSubscription({
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
      } satisfies WithWebhooks);
    }

    if (opts.gateway) {
      const launchGateway = async (port: number, more: Record<string, string> = {}): Promise<RunningGateway> => {
        const running = await startInProcess('gateway', {
          env: { ...env, ...portEnv('gateway', { api: port }), PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, ...more },
          logger: loggerOf('gateway'),
        });
        stoppers.push(() => running.stop());
        return {
          app: running.app,
          port: running.ports.api!,
          opsPort: running.ports.ops!,
          baseUrl: `http://127.0.0.1:${running.ports.api}`,
        };
      };
      const main = await launchGateway(gwPort);
      const { port } = main;
      const baseUrl = `http://127.0.0.1:${port}`;
      const request: WithGateway['request'] = async (account, method, path, body, headers = {}) => {
        const h: Record<string, string> = { ...headers };
        if (account) h.authorization = account.authorization;
        let payload: string | undefined;
        if (body !== undefined) {
          payload = typeof body === 'string' ? body : JSON.stringify(body);
          h['content-type'] ??= 'application/json';
        }
        const res = await fetch(`${baseUrl}${path}`, {
          method,
          headers: h,
          ...(payload !== undefined ? { body: payload } : {}),
        });
        await assertDocumented(method, `${baseUrl}${path}`, res);
        return res;
      };
      const startGateway = async (more: Record<string, string> = {}): Promise<RunningGateway> =>
        launchGateway(await freePort(), more);
      Object.assign(services, {
        gateway: main,
        baseUrl,
        startGateway,
        request,
        async listAll<T>(account: TestAccount, path: string) {
          const items: T[] = [];
          for (let next: string | undefined = path; next; ) {
            const res = await request(account, 'GET', next);
            if (res.status !== 200) throw new Error(`GET ${next}: ${res.status}`);
            items.push(...((await res.json()) as T[]));
            const link = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
            const url = link ? new URL(link) : undefined;
            next = url ? url.pathname + url.search : undefined;
          }
          return items;
        },
      } satisfies WithGateway);
    }

    // Dispatchers are stopped first, before the services they call.
    const dispatchers = new Set<{ stop(): Promise<void> }>();
    const dispatcherEnv = { ...env, ...opts.dispatcherEnv };
    const startDispatcher = async (more: Record<string, string> = {}): Promise<RunningDispatcher> => {
      const running = await startInProcess('dispatcher', {
        env: { ...dispatcherEnv, ...portEnv('dispatcher', { ops: await freePort() }), ...more },
      });
      const d: RunningDispatcher = {
        app: running.app,
        opsPort: running.ports.ops!,
        metrics: () => running.metrics(),
        async stop() {
          if (!dispatchers.delete(d)) return;
          await running.stop();
        },
      };
      dispatchers.add(d);
      return d;
    };
    const spawnDispatcher = async (more: Record<string, string> = {}): Promise<ChildDispatcher> => {
      const proc = serviceProcess('dispatcher', {
        env: { ...dispatcherEnv, ...portEnv('dispatcher', { ops: await freePort() }), ...more },
        // Its logs reach the test's output when TEST_LOG_LEVEL asks for them; else they show if it fails.
        output: LEVEL === 'silent' ? 'capture' : 'inherit',
        readyTimeoutMs: 30_000,
      });
      const d: ChildDispatcher = {
        get child() {
          return proc.child!;
        },
        opsPort: proc.ports.ops!,
        async kill9() {
          dispatchers.delete(d);
          await proc.kill9();
        },
        async stop() {
          if (!dispatchers.delete(d)) return;
          await proc.stop();
        },
      };
      dispatchers.add(d);
      await proc.start();
      return d;
    };
    stoppers.push(async () => {
      for (const d of [...dispatchers]) await d.stop().catch(() => undefined);
    });
    Object.assign(services, { startDispatcher, spawnDispatcher, stop: stopAll });
    if (opts.dispatcher) services.dispatcher = await startDispatcher();
    return services as Services<O>;
  } catch (err) {
    await stopAll().catch(() => undefined);
    throw err;
  }
}
