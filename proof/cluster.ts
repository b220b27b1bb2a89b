// The proof launcher: N replicas of every service as child processes on loopback, sharing one
// fresh database (on a private Postgres that can be stopped) and one private NATS server. Clients
// reach the gateways, and the gateways, webhooks and dispatchers reach the gRPC services, through
// round-robin TCP proxies (proof/lib/proxy.ts), so any replica can be killed with SIGKILL and
// restarted on the same ports while the others carry the load.
import { readFileSync } from 'node:fs';
import { createAccount } from '@switchboard/applications/accounts';
import { connectNats, type NatsHandle } from '@switchboard/messaging';
import { createLogger } from '@switchboard/observability';
import { SecretBox } from '@switchboard/security';
import {
  createTestDatabase,
  freePort,
  newSecretsKey,
  startNatsServer,
  startPrivatePostgres,
  type NatsServer,
  type PrivatePostgres,
  type TestDatabase,
} from '../test/support/infra';
import { initOrm, migrate } from '@switchboard/db';
import { SCHEMA } from '../services/applications/src/db/schema';
import { portEnv, ROOT, serviceProcess, type ServiceName } from '../test/support/launcher';
import { startProxy, type Proxy as TcpProxy } from './lib/proxy';

export const root = ROOT;

export type Service = ServiceName;
export const SERVICES: Service[] = ['gateway', 'applications', 'webhooks', 'dispatcher'];

export interface ClusterOptions {
  gateways?: number;
  applications?: number;
  webhooks?: number;
  dispatchers?: number;
  /** A private Postgres cluster that stopPostgres() can stop (default true); else a database on the shared server. */
  privatePostgres?: boolean;
  /** DELIVERY_ALLOWED_CIDRS of webhooks, applications and dispatchers ('' = nothing private allowed). */
  allowedCidrs?: string;
  /** A NATS server or cluster the caller started (the cluster destroys it at stop); default a private single server. */
  nats?: NatsServer;
  /** Extra environment of every process, and of the dispatchers only. */
  env?: Record<string, string>;
  dispatcherEnv?: Record<string, string>;
  logLevel?: string;
}

/** Short delivery timings for the proof (seconds instead of hours). */
export const PROOF_DISPATCHER_ENV: Record<string, string> = {
  DELIVERY_RETRY_SCHEDULE: '200ms,500ms,1s,2s,5s',
  DELIVERY_TIMEOUT_MS: '2000',
  JETSTREAM_ACK_WAIT: '8s',
  DELIVERY_BREAKER_VOLUME_THRESHOLD: '10',
  DELIVERY_BREAKER_RESET_TIMEOUT: '1s',
  DELIVERY_BREAKER_WINDOW: '5s',
  RECORD_FLUSH_INTERVAL: '20ms',
  LOOKUP_CACHE_TTL: '1s',
};

export interface Replica {
  service: Service;
  index: number;
  name: string;
  /** The port whose /metrics this replica serves (its OPS_PORT). */
  metricsPort: number;
  /** The gateway's API port (PORT); absent for the other services. */
  apiPort?: number;
  pid(): number | undefined;
  alive(): boolean;
  /** Starts the process (again) on the same ports and waits until it is ready. */
  start(): Promise<void>;
  /** kill -9: no drain, no goodbye. */
  kill9(): Promise<void>;
  /** SIGTERM and wait. */
  stop(): Promise<void>;
  metrics(): Promise<string>;
  /** The last lines of its stderr. */
  stderr(): string;
}

export interface Cluster {
  /** Base URL of the gateways' round-robin proxy. */
  apiUrl: string;
  replicas: Replica[];
  of(service: Service): Replica[];
  proxies: { gateway: TcpProxy; applications: TcpProxy; webhooks: TcpProxy };
  postgres?: PrivatePostgres;
  databaseUrl: string;
  nats: NatsServer;
  /** A NATS connection of the proof itself, to publish events (reconnects forever). */
  bus: NatsHandle;
  env: Record<string, string>;
  /** Creates an account directly in the applications schema; returns its id. */
  createAccount(username: string, password: string): Promise<string>;
  stopPostgres(): Promise<void>;
  startPostgres(): Promise<void>;
  restartNats(): Promise<void>;
  stop(): Promise<void>;
}

/** One replica: its process on fixed ports, ready on `readyPath` of its operations port. */
function replica(
  service: Service,
  index: number,
  env: Record<string, string>,
  readyPath: '/readyz' | '/healthz',
): Replica {
  const proc = serviceProcess(service, {
    name: `${service}-${index + 1}`,
    env,
    readyPath,
    readyTimeoutMs: 90_000,
    graceMs: 15_000,
  });
  return {
    service,
    index,
    name: proc.name,
    metricsPort: proc.ports.ops!,
    ...(proc.ports.api !== undefined ? { apiPort: proc.ports.api } : {}),
    pid: proc.pid,
    alive: proc.alive,
    start: proc.start,
    kill9: proc.kill9,
    stop: proc.stop,
    metrics: proc.metrics,
    stderr: proc.logs,
  };
}

export async function startCluster(o: ClusterOptions = {}): Promise<Cluster> {
  const counts: Record<Service, number> = {
    gateway: o.gateways ?? 2,
    applications: o.applications ?? 2,
    webhooks: o.webhooks ?? 2,
    dispatcher: o.dispatchers ?? 3,
  };
  const level = o.logLevel ?? process.env.PROOF_LOG_LEVEL ?? 'warn';
  const postgres = o.privatePostgres === false ? undefined : await startPrivatePostgres();
  const db: TestDatabase = await createTestDatabase(postgres?.url);
  const nats = o.nats ?? (await startNatsServer());
  const cleanups: Array<() => Promise<void>> = [];
  const replicas: Replica[] = [];
  const ports = async (n: number) => Promise.all(Array.from({ length: n }, () => freePort()));
  try {
    const [appsGrpc, appsOps, whGrpc, whOps, gwPorts, gwOps, dOps] = await Promise.all([
      ports(counts.applications),
      ports(counts.applications),
      ports(counts.webhooks),
      ports(counts.webhooks),
      ports(counts.gateway),
      ports(counts.gateway),
      ports(counts.dispatcher),
    ]);
    const proxies = {
      applications: await startProxy(appsGrpc),
      webhooks: await startProxy(whGrpc),
      gateway: await startProxy(gwPorts),
    };
    cleanups.push(async () => {
      await Promise.all(Object.values(proxies).map((p) => p.close()));
    });
    const apiUrl = `http://127.0.0.1:${proxies.gateway.port}`;
    const cidrs = o.allowedCidrs ?? '127.0.0.0/8,::1/128';
    const common: Record<string, string> = {
      DATABASE_URL: db.url,
      NATS_URL: nats.url,
      LOG_LEVEL: level,
      HOST: '127.0.0.1',
      DELIVERY_ALLOWED_CIDRS: cidrs,
      APPLICATIONS_GRPC_URL: proxies.applications.address,
      WEBHOOKS_GRPC_URL: proxies.webhooks.address,
      DB_POOL_MAX: '5',
      SECRETS_KEY: newSecretsKey(),
      ...o.env,
    };
    for (let i = 0; i < counts.applications; i++)
      replicas.push(
        replica(
          'applications',
          i,
          { ...common, ...portEnv('applications', { grpc: appsGrpc[i], ops: appsOps[i] }) },
          '/readyz',
        ),
      );
    for (let i = 0; i < counts.webhooks; i++)
      replicas.push(
        replica('webhooks', i, { ...common, ...portEnv('webhooks', { grpc: whGrpc[i], ops: whOps[i] }) }, '/readyz'),
      );
    for (let i = 0; i < counts.gateway; i++)
      replicas.push(
        replica(
          'gateway',
          i,
          {
            ...common,
            ...portEnv('gateway', { api: gwPorts[i], ops: gwOps[i] }),
            PUBLIC_BASE_URL: apiUrl,
            RATE_LIMIT_PER_SECOND: '0',
            AUTH_LOCKOUT_MS: '30000',
          },
          '/healthz',
        ),
      );
    for (let i = 0; i < counts.dispatcher; i++)
      replicas.push(
        replica(
          'dispatcher',
          i,
          { ...common, ...PROOF_DISPATCHER_ENV, ...o.dispatcherEnv, ...portEnv('dispatcher', { ops: dOps[i] }) },
          '/readyz',
        ),
      );
    cleanups.push(async () => {
      // Dispatchers first (they drain), then the rest.
      await Promise.all(replicas.filter((r) => r.service === 'dispatcher').map((r) => r.stop()));
      await Promise.all(replicas.map((r) => r.stop()));
    });
    const of = (s: Service) => replicas.filter((r) => r.service === s);
    // The first replica of each database service migrates; the others start beside it.
    await of('applications')[0]!.start();
    await Promise.all([...of('applications').slice(1), ...of('webhooks').slice(0, 1)].map((r) => r.start()));
    await Promise.all([...of('webhooks').slice(1), ...of('gateway'), ...of('dispatcher')].map((r) => r.start()));

    const logger = createLogger('proof', 'silent');
    const bus = await connectNats(nats.url, logger, 'proof');
    cleanups.push(() => bus.close());
    const orm = await initOrm(
      {
        ...SCHEMA,
        databaseUrl: db.url,
        schema: 'applications',
        poolMax: 2,
        logger,
        secrets: SecretBox.fromText(common.SECRETS_KEY!),
      },
      10_000,
    );
    await migrate(orm, 'applications', logger);
    cleanups.push(() => orm.close());

    const cluster: Cluster = {
      apiUrl,
      replicas,
      of,
      proxies,
      ...(postgres ? { postgres } : {}),
      databaseUrl: db.url,
      nats,
      bus,
      env: common,
      async createAccount(username, password) {
        const a = await createAccount(orm.em.fork(), username, password);
        return a.id;
      },
      async stopPostgres() {
        if (!postgres) throw new Error('the cluster runs on the shared Postgres, which the proof does not stop');
        await postgres.stop();
      },
      async startPostgres() {
        await postgres?.start();
      },
      restartNats: () => nats.restart(),
      async stop() {
        for (const c of cleanups.reverse()) await c().catch(() => undefined);
        await nats.destroy().catch(() => undefined);
        await db.drop().catch(() => undefined);
        await postgres?.destroy().catch(() => undefined);
      },
    };
    return cluster;
  } catch (err) {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
    await nats.destroy().catch(() => undefined);
    await db.drop().catch(() => undefined);
    await postgres?.destroy().catch(() => undefined);
    throw err;
  }
}

/** Resident memory of a process in MB (VmRSS), or undefined when it is gone. */
export function rssMb(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}
