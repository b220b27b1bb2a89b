// Brings up the real services in-process on free ports, against a fresh database and a private
// NATS server, for component tests that go through the real gateway.
import * as applications from '@switchboard/applications';
import * as gateway from '@switchboard/gateway';
import { createAccount } from '@switchboard/applications/accounts';
import { createLogger, type Logger } from '@switchboard/platform';
import { assertDocumented } from './openapi';
import { createTestDatabase, freePort, newSecretsKey, randomName, startNatsServer, type NatsServer, type TestDatabase } from './index';

interface WebhooksModule {
  loadConfig(env: Record<string, string | undefined>): unknown;
  createApp(config: unknown, logger: unknown): Promise<{ start(): Promise<{ grpcPort: number; opsPort: number }>; stop(): Promise<void> }>;
}

export interface TestAccount {
  id: string;
  username: string;
  password: string;
  /** Value of the Authorization header. */
  authorization: string;
}

export interface StackOptions {
  /** Use this database URL instead of a fresh database on the shared server. */
  databaseUrl?: string;
  /** Use this NATS server instead of a private one. */
  nats?: NatsServer;
  /** Extra environment for every service's config. */
  env?: Record<string, string>;
  /** Start the webhooks service too (needs services/webhooks). */
  webhooks?: boolean;
  /** The logger of each service (default: JSON at TEST_LOG_LEVEL, silent unless set). */
  logger?: (service: 'applications' | 'webhooks' | 'gateway') => Logger;
}

export interface Stack {
  baseUrl: string;
  databaseUrl: string;
  /** The SECRETS_KEY the services were started with. */
  secretsKey: string;
  nats: NatsServer;
  applications: applications.ApplicationsApp;
  ports: { gateway: number; applicationsGrpc: number; applicationsOps: number; webhooksGrpc: number; webhooksOps?: number };
  createAccount(prefix?: string): Promise<TestAccount>;
  /** fetch() against the gateway with the account's credentials and a JSON body. */
  request(account: TestAccount | undefined, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  /** GETs a list and every next page its Link headers announce; returns the items of all pages in order. */
  listAll<T = Record<string, unknown>>(account: TestAccount, path: string): Promise<T[]>;
  stop(): Promise<void>;
}

export async function startStack(opts: StackOptions = {}): Promise<Stack> {
  const db: TestDatabase | undefined = opts.databaseUrl ? undefined : await createTestDatabase();
  const databaseUrl = opts.databaseUrl ?? db!.url;
  const nats = opts.nats ?? (await startNatsServer());
  const level = process.env.TEST_LOG_LEVEL ?? 'silent';
  const loggerOf = opts.logger ?? ((service: string) => createLogger(service, level));
  const [appsGrpc, appsOps, gwPort, whGrpc, whOps] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
  const common = { DATABASE_URL: databaseUrl, NATS_URL: nats.url, LOG_LEVEL: level, HOST: '127.0.0.1', SECRETS_KEY: newSecretsKey(), ...opts.env };

  const apps = await applications.createApp(
    applications.loadConfig({ ...common, GRPC_PORT: String(appsGrpc), OPS_PORT: String(appsOps) }),
    loggerOf('applications'),
  );
  await apps.start();

  let webhooksApp: { start(): Promise<{ grpcPort: number; opsPort: number }>; stop(): Promise<void> } | undefined;
  if (opts.webhooks) {
    // Loaded only when asked for, so stacks without webhooks do not need the package.
    const spec = '@switchboard/webhooks';
    const webhooks = (await import(spec)) as WebhooksModule;
    webhooksApp = await webhooks.createApp(
      webhooks.loadConfig({ ...common, GRPC_PORT: String(whGrpc), OPS_PORT: String(whOps), APPLICATIONS_GRPC_URL: `127.0.0.1:${appsGrpc}` }),
      loggerOf('webhooks'),
    );
    await webhooksApp!.start();
  }

  const gw = gateway.createApp(
    gateway.loadConfig({
      ...common,
      PORT: String(gwPort),
      PUBLIC_BASE_URL: `http://127.0.0.1:${gwPort}`,
      APPLICATIONS_GRPC_URL: `127.0.0.1:${appsGrpc}`,
      WEBHOOKS_GRPC_URL: `127.0.0.1:${whGrpc}`,
    }),
    loggerOf('gateway'),
  );
  const { port } = await gw.start();
  const baseUrl = `http://127.0.0.1:${port}`;

  const stack: Stack = {
    baseUrl,
    databaseUrl,
    secretsKey: common.SECRETS_KEY,
    nats,
    applications: apps,
    ports: { gateway: port, applicationsGrpc: appsGrpc, applicationsOps: appsOps, webhooksGrpc: whGrpc, ...(opts.webhooks ? { webhooksOps: whOps } : {}) },
    async createAccount(prefix = 'user') {
      const username = randomName(prefix);
      const password = `pw-${randomName('secret')}`;
      const a = await createAccount(apps.orm.em.fork(), username, password);
      return { id: a.id, username, password, authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` };
    },
    async request(account, method, path, body, headers = {}) {
      const h: Record<string, string> = { ...headers };
      if (account) h.authorization = account.authorization;
      let payload: string | undefined;
      if (body !== undefined) {
        payload = typeof body === 'string' ? body : JSON.stringify(body);
        h['content-type'] ??= 'application/json';
      }
      const res = await fetch(`${baseUrl}${path}`, { method, headers: h, ...(payload !== undefined ? { body: payload } : {}) });
      await assertDocumented(method, `${baseUrl}${path}`, res);
      return res;
    },
    async listAll<T>(account: TestAccount, path: string) {
      const items: T[] = [];
      for (let next: string | undefined = path; next; ) {
        const res = await stack.request(account, 'GET', next);
        if (res.status !== 200) throw new Error(`GET ${next}: ${res.status}`);
        items.push(...((await res.json()) as T[]));
        const link = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
        const url = link ? new URL(link) : undefined;
        next = url ? url.pathname + url.search : undefined;
      }
      return items;
    },
    async stop() {
      await gw.stop();
      await webhooksApp?.stop();
      await apps.stop();
      if (!opts.nats) await nats.destroy();
      await db?.drop();
    },
  };
  return stack;
}
