// Test fixture: a fresh database and a private NATS server, the real applications service
// in-process, and the webhooks service on free ports, which a test can stop and start again.
import * as applications from '@switchboard/applications';
import { createAccount } from '@switchboard/applications/accounts';
import { connectNats, createLogger, type NatsHandle } from '@switchboard/platform';
import { applicationsClient, webhooksClient, type ApplicationsClient, type WebhooksClient } from '@switchboard/proto';
import { createTestDatabase, freePort, newSecretsKey, randomName, startNatsServer, type NatsServer, type TestDatabase } from '@switchboard/testing';
import { createApp, loadConfig, type WebhooksApp } from '../src/app';

const LEVEL = process.env.TEST_LOG_LEVEL ?? 'silent';

export interface RunningWebhooks {
  app: WebhooksApp;
  client: WebhooksClient;
  grpcPort: number;
  opsPort: number;
  stop(): Promise<void>;
}

export interface Harness {
  db: TestDatabase;
  nats: NatsServer;
  /** A NATS connection for the test itself (publish events, watch webhooks.changed). */
  bus: NatsHandle;
  apps: applications.ApplicationsApp;
  appsClient: ApplicationsClient;
  appsGrpcPort: number;
  /** The webhooks service started by the harness (replaced by restartWebhooks). */
  webhooks: RunningWebhooks;
  env: Record<string, string>;
  startWebhooks(env?: Record<string, string>): Promise<RunningWebhooks>;
  newAccount(): Promise<string>;
  newApplication(accountId: string): Promise<string>;
  stop(): Promise<void>;
}

export async function startHarness(extraEnv: Record<string, string> = {}): Promise<Harness> {
  const db = await createTestDatabase();
  const nats = await startNatsServer();
  const [appsGrpc, appsOps] = await Promise.all([freePort(), freePort()]);
  const env: Record<string, string> = {
    DATABASE_URL: db.url,
    NATS_URL: nats.url,
    LOG_LEVEL: LEVEL,
    HOST: '127.0.0.1',
    DELIVERY_ALLOWED_CIDRS: '127.0.0.0/8,::1/128',
    APPLICATIONS_GRPC_URL: `127.0.0.1:${appsGrpc}`,
    SECRETS_KEY: newSecretsKey(),
    ...extraEnv,
  };
  const apps = await applications.createApp(
    applications.loadConfig({ ...env, GRPC_PORT: String(appsGrpc), OPS_PORT: String(appsOps) }),
    createLogger('applications', LEVEL),
  );
  await apps.start();
  const appsClient = applicationsClient(`127.0.0.1:${appsGrpc}`);
  const bus = await connectNats(nats.url, createLogger('test', LEVEL), 'test');
  const running = new Set<RunningWebhooks>();

  const startWebhooks = async (more: Record<string, string> = {}): Promise<RunningWebhooks> => {
    const [grpc, ops] = await Promise.all([freePort(), freePort()]);
    const app = await createApp(loadConfig({ ...env, GRPC_PORT: String(grpc), OPS_PORT: String(ops), ...more }), createLogger('webhooks', LEVEL));
    const ports = await app.start();
    const client = webhooksClient(`127.0.0.1:${ports.grpcPort}`);
    const r: RunningWebhooks = {
      app,
      client,
      ...ports,
      async stop() {
        if (!running.delete(r)) return;
        client.close();
        await app.stop();
      },
    };
    running.add(r);
    return r;
  };

  const h: Harness = {
    db,
    nats,
    bus,
    apps,
    appsClient,
    appsGrpcPort: appsGrpc,
    webhooks: await startWebhooks(),
    env,
    startWebhooks,
    async newAccount() {
      const a = await createAccount(apps.orm.em.fork(), randomName('user'), `pw-${randomName('pw')}`);
      return a.id;
    },
    async newApplication(accountId) {
      const { application } = await appsClient.createApplication({ accountId, name: 'app', voiceUrl: 'https://example.com/voice' });
      return application!.id;
    },
    async stop() {
      for (const r of [...running]) await r.stop();
      appsClient.close();
      await bus.close();
      await apps.stop();
      await nats.destroy();
      await db.drop();
    },
  };
  return h;
}

/** Collects the bodies published on a subject from now on. */
export function watch(bus: NatsHandle, subject: string): { messages: Record<string, unknown>[]; stop(): void } {
  const messages: Record<string, unknown>[] = [];
  const sub = bus.nc.subscribe(subject);
  (async () => {
    for await (const m of sub) messages.push(m.json());
  })().catch(() => undefined);
  return { messages, stop: () => sub.unsubscribe() };
}

/** The AppError code a rejected client call carries. */
export async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return (err as { code: string }).code;
  }
  return 'ok';
}

/** The field errors of a rejected client call. */
export async function fieldErrorsOf(p: Promise<unknown>): Promise<{ code: string; fields: string[]; messages: string[] }> {
  try {
    await p;
  } catch (err) {
    const e = err as { code: string; errors?: { field: string; message: string }[] };
    return { code: e.code, fields: (e.errors ?? []).map((x) => x.field), messages: (e.errors ?? []).map((x) => x.message) };
  }
  return { code: 'ok', fields: [], messages: [] };
}
