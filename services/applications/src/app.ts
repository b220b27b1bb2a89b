// Composition root of the applications service: createApp(config) -> { start, stop }.
import { createDataService, type DataServiceApp } from '@switchboard/store-service';
import { startOutboxRelay, type OutboxRelay } from '@switchboard/db';
import { createLogger, type BackgroundLoop, type Logger } from '@switchboard/observability';
import { ensureKvBucket, ensureStreams } from '@switchboard/messaging';
import { KV_BUCKETS, STREAMS } from '@switchboard/events';
import { SessionRegistry } from '@switchboard/contracts';
import { batchProto, healthProto } from '@switchboard/proto';
import { setKdfThreads, setScryptN, warmKdfThreads } from './accounts/password.ts';
import type { Config } from './config.ts';
import type { Deps } from './context.ts';
import { SCHEMA } from './db/schema.ts';
import { createLaunchRefusals } from './sessions/launch-refusals.ts';
import { gatewayOnlyRpcs, registerHandlers } from './grpc/handlers.ts';
import { announceRevoked, credentialKeys } from './api-keys/announce.ts';
import { startCredentialPruning } from './audit/prune-credentials.ts';

export { loadConfig, type Config } from './config.ts';

export type ApplicationsApp = DataServiceApp;

export interface AppOptions {
  /** The clock browser sessions' ends are measured by (default: the wall clock; tests move it). */
  now?: () => Date;
}

export async function createApp(
  config: Config,
  logger: Logger = createLogger('applications', config.LOG_LEVEL),
  options: AppOptions = {},
): Promise<ApplicationsApp> {
  const now = options.now ?? (() => new Date());
  setScryptN(config.PASSWORD_SCRYPT_N);
  setKdfThreads(config.PASSWORD_KDF_THREADS, config.PASSWORD_KDF_NICE, config.PASSWORD_KDF_QUEUE);
  warmKdfThreads();
  const service = await createDataService('applications', SCHEMA, config, logger);
  const { orm, idempotency, grpc } = service;
  let relay: OutboxRelay | undefined;
  let pruning: BackgroundLoop | undefined;

  return {
    logger,
    orm,
    async start() {
      const nats = await service.connect();
      // The Session API publishes sessions.new (outbox) and sessions.signal, and keeps its registry.
      await ensureStreams(
        nats.jsm,
        [STREAMS.events, STREAMS.core],
        config.NATS_STREAM_REPLICAS,
        service.storeLimits.streamMaxBytes,
      );
      await ensureKvBucket(
        nats.jsm,
        KV_BUCKETS.sessions,
        config.NATS_STREAM_REPLICAS,
        service.storeLimits.kvMaxBytes,
        false,
      );
      // Idempotency keys are kept 24 h (packages/db/src/idempotency.ts).
      pruning = startCredentialPruning(
        orm,
        idempotency,
        {
          schema: config.DB_SCHEMA,
          retentionDays: config.AUDIT_RETENTION_DAYS,
          idleMs: config.CONSOLE_SESSION_IDLE_MS,
          everyMs: config.PRUNE_INTERVAL_MS,
          dayMs: config.RETENTION_DAY_MS,
          now,
        },
        logger,
      );
      relay = startOutboxRelay(orm, nats.js, config.DB_SCHEMA, logger);
      const deps: Deps = {
        orm,
        allowedCidrs: config.DELIVERY_ALLOWED_CIDRS,
        sipDomain: config.SIP_DOMAIN,
        outbox: relay,
        secrets: config.SECRETS_KEY,
        limits: {
          tokensPerApplication: config.APPLICATION_TOKENS_MAX,
          launchesPerSecond: config.SESSION_LAUNCH_RATE_PER_ACCOUNT,
          launchBurst: config.SESSION_LAUNCH_BURST_PER_ACCOUNT,
        },
        sessions: new SessionRegistry(nats.js, nats.jsm),
        js: nats.js,
        launchRefusals: createLaunchRefusals(nats.js, logger),
        logger,
        credentialKeys: credentialKeys(config.SECRETS_KEY),
        announceRevoked: (body) => announceRevoked(nats.nc, body, logger),
        consoleSessions: { absoluteMs: config.CONSOLE_SESSION_TTL_MS, idleMs: config.CONSOLE_SESSION_IDLE_MS, now },
        loginLockout: { maxFailures: config.AUTH_MAX_FAILURES, lockoutMs: config.AUTH_LOCKOUT_MS },
      };
      // Answers signing secrets: the dispatcher's alone when INTERNAL_RPC_TOKEN is set.
      grpc.requireToken(['LookupApplication'], config.INTERNAL_RPC_TOKEN);
      // Accounts and credentials: the gateway's alone when GATEWAY_RPC_TOKEN is set.
      grpc.requireToken(gatewayOnlyRpcs(), config.GATEWAY_RPC_TOKEN);
      registerHandlers(grpc, deps);
      grpc.addHealth(healthProto().Health.service);
      grpc.addBatch(batchProto().BatchService.service);
      return service.serve(async (n) => ({
        database: await orm.isConnected().catch(() => false),
        nats: !n.nc.isClosed(),
      }));
    },
    async stop() {
      await service.stop(async () => {
        await pruning?.stop();
        await relay?.stop();
      });
    },
  };
}
