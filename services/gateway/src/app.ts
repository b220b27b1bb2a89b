// Composition root of the gateway: createApp(config) -> { start, stop }.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import {
  Counter,
  createLogger,
  Gauge,
  createRegistry,
  handleOpsRequest,
  startOpsServer,
  type Logger,
  type OpsHandlers,
  type OpsServer,
} from '@switchboard/observability';
import { tracedHttpRequest } from '@switchboard/observability/tracing';
import {
  accountsClient,
  addressesClient,
  applicationsClient,
  callBatcher,
  healthClient,
  sessionsClient,
  webhooksClient,
  apiKeysClient,
  auditClient,
  consoleSessionsClient,
} from '@switchboard/proto';
import { Authenticator } from './auth.ts';
import { buildOpenApi } from './openapi.ts';
import type { Config } from './config.ts';
import { Hrefs } from './hrefs.ts';
import { accessLog, redactToken } from './http/access-log.ts';
import { accountRoutes } from './http/accounts.ts';
import { applicationSecretRoutes } from './http/application-secrets.ts';
import { addressRoutes, availableNumbersRoute } from './http/addresses.ts';
import { applicationRoutes } from './http/applications.ts';
import { deliveryInsightRoutes } from './http/delivery-insights.ts';
import { deliveryToolRoutes } from './http/delivery-tools.ts';
import { authenticate, shedBeforeWork } from './http/authenticate.ts';
import { refuseCrossSiteWrites } from './http/cross-site.ts';
import type { RouteDeps } from './http/deps.ts';
import { jsonBody, jsonOrFormBody } from './http/json-body.ts';
import { problemHandler, notFoundHandler } from './http/problem.ts';
import { requestId } from './http/request-id.ts';
import { sessionRecordRoutes } from './http/session-records.ts';
import { alertRoutes } from './http/alerts.ts';
import { triggerRoutes } from './http/triggers.ts';
import { sessionRoutes } from './http/sessions.ts';
import { webhookRoutes } from './http/webhooks.ts';
import { limitsBucketSpec, SharedLimitStore, SharedRateLimiter } from './shared-limits.ts';
import { ApiKeyVerifier } from './auth/api-keys.ts';
import { Credentials } from './auth/credentials.ts';
import { FailedSignIns } from './auth/failed-sign-ins.ts';
import { followRevocations, type RevocationFollower } from './auth/revocations.ts';
import { SessionVerifier } from './auth/sessions.ts';
import { apiKeyRoutes } from './http/api-keys.ts';
import { auditRoutes } from './http/audit.ts';
import { apiReferenceRoutes } from './http/api-reference.ts';
import { consoleSessionRoutes, passwordRoutes } from './http/console-session.ts';
import { consoleRoutes } from './http/console-app.ts';
import { isTrustedPeer } from './client-address.ts';

export { loadConfig, type Config } from './config.ts';

export interface GatewayApp {
  logger: Logger;
  /** Listens on PORT (the API) and OPS_PORT (/healthz, /readyz, /metrics); answers the bound ports. */
  start(): Promise<{ port: number; opsPort: number }>;
  stop(): Promise<void>;
}

export function createApp(config: Config, logger: Logger = createLogger('gateway', config.LOG_LEVEL)): GatewayApp {
  const registry = createRegistry('gateway');
  const grpcMetrics = { registry, prefix: 'gateway' };
  // The clients of each service address share one batcher: under load their calls leave in batches.
  const batchers =
    config.GRPC_BATCH_IN_FLIGHT > 0
      ? {
          applications: callBatcher(config.APPLICATIONS_GRPC_URL, {
            target: 'applications',
            maxInFlight: config.GRPC_BATCH_IN_FLIGHT,
            metrics: grpcMetrics,
          }),
          webhooks: callBatcher(config.WEBHOOKS_GRPC_URL, {
            target: 'webhooks',
            maxInFlight: config.GRPC_BATCH_IN_FLIGHT,
            metrics: grpcMetrics,
          }),
        }
      : undefined;
  const appsOpts = {
    defaultTimeoutMs: config.GRPC_TIMEOUT_MS,
    metrics: grpcMetrics,
    batch: batchers?.applications,
    token: config.APPLICATIONS_RPC_TOKEN,
  };
  const accounts = accountsClient(config.APPLICATIONS_GRPC_URL, appsOpts);
  const applications = applicationsClient(config.APPLICATIONS_GRPC_URL, appsOpts);
  const webhooks = webhooksClient(config.WEBHOOKS_GRPC_URL, {
    ...appsOpts,
    batch: batchers?.webhooks,
    token: undefined,
  });
  const addresses = addressesClient(config.APPLICATIONS_GRPC_URL, appsOpts);
  const sessions = sessionsClient(config.APPLICATIONS_GRPC_URL, appsOpts);
  const apiKeys = apiKeysClient(config.APPLICATIONS_GRPC_URL, appsOpts);
  const consoleSessions = consoleSessionsClient(config.APPLICATIONS_GRPC_URL, appsOpts);
  const audit = auditClient(config.APPLICATIONS_GRPC_URL, appsOpts);
  const health = {
    applications: healthClient(config.APPLICATIONS_GRPC_URL, 'applications', { defaultTimeoutMs: 1000 }),
    webhooks: healthClient(config.WEBHOOKS_GRPC_URL, 'webhooks', { defaultTimeoutMs: 1000 }),
  };

  // The limits counted for every replica together (shared-limits.ts): one store, one limiter per limit.
  const limitRates = {
    account: { perSecond: config.RATE_LIMIT_PER_SECOND, burst: Math.max(1, config.RATE_LIMIT_PER_SECOND * 2) },
    address: { perSecond: config.AUTH_ADDRESS_FAILURES_PER_SECOND, burst: config.AUTH_ADDRESS_FAILURES_BURST },
    session: {
      perSecond: config.SESSION_RATE_LIMIT_PER_SECOND,
      burst: Math.max(1, config.SESSION_RATE_LIMIT_PER_SECOND * 2),
    },
  };
  const sharedLimits = config.SHARED_LIMITS
    ? new SharedLimitStore({
        nats: { url: config.NATS_URL, user: config.NATS_USER, password: config.NATS_PASSWORD },
        logger,
        spec: limitsBucketSpec(Object.values(limitRates)),
        maxBytes: config.SHARED_LIMITS_MAX_BYTES,
        replicas: config.NATS_STREAM_REPLICAS,
        timeoutMs: config.SHARED_LIMITS_TIMEOUT_MS,
      })
    : undefined;
  if (sharedLimits)
    new Gauge({
      name: 'gateway_shared_limits_up',
      help: '1 while the shared limits are counted in NATS (SWITCHBOARD_LIMITS), 0 while this replica counts them alone (absent with SHARED_LIMITS=false).',
      registers: [registry],
      collect() {
        this.set(sharedLimits.available ? 1 : 0);
      },
    });
  const limitMetrics = {
    fallbacks: new Counter({
      name: 'gateway_shared_limit_fallbacks_total',
      help: 'Requests counted by this replica alone because the shared limits could not be reached, by limit (account, address, session).',
      labelNames: ['limit'] as const,
      registers: [registry],
    }),
    leases: new Counter({
      name: 'gateway_shared_limit_leases_total',
      help: 'Leases of tokens from the shared limits, by limit and result (granted; dry: fewer than asked, the key is at its limit; failed).',
      labelNames: ['limit', 'result'] as const,
      registers: [registry],
    }),
  };
  const sharedLimiter = (name: keyof typeof limitRates) =>
    new SharedRateLimiter(sharedLimits, {
      name,
      ...limitRates[name],
      maxBytes: config.RATE_LIMIT_TABLE_BYTES,
      metrics: limitMetrics,
    });
  const limiter = sharedLimiter('account');
  const sessionLimiter = sharedLimiter('session');

  const authenticator = new Authenticator(accounts, {
    cacheTtlMs: config.AUTH_CACHE_TTL_MS,
    maxFailures: config.AUTH_MAX_FAILURES,
    lockoutMs: config.AUTH_LOCKOUT_MS,
    failureTableBytes: config.AUTH_FAILURE_TABLE_BYTES,
    cacheBytes: config.RATE_LIMIT_TABLE_BYTES,
    verifyConcurrency: config.AUTH_VERIFY_CONCURRENCY,
    verifyQueue: config.AUTH_VERIFY_QUEUE,
    addressLimiter: sharedLimiter('address'),
    metrics: {
      cacheHits: new Counter({
        name: 'gateway_auth_cache_hits_total',
        help: 'Requests authenticated from the verified-credentials cache.',
        registers: [registry],
      }),
      failures: new Counter({
        name: 'gateway_auth_failures_total',
        help: 'Failed or locked-out authentication attempts.',
        registers: [registry],
      }),
      shed: new Counter({
        name: 'gateway_auth_shed_total',
        help: 'Logins refused before verification: client address over its failure budget, or verification queue full.',
        registers: [registry],
      }),
    },
  });
  const keyVerifier = new ApiKeyVerifier(apiKeys, { cacheTtlMs: config.API_KEY_CACHE_TTL_MS });
  const origin = new URL(config.PUBLIC_BASE_URL).origin;
  const failedSignIns = new FailedSignIns(audit, logger);
  const credentials = new Credentials(
    authenticator,
    keyVerifier,
    new SessionVerifier(consoleSessions),
    origin,
    new Counter({
      name: 'gateway_auth_requests_total',
      help: 'Authentications of API requests, by credential type (password, key, session) and outcome (ok, unauthenticated, forbidden, rate_limited, error).',
      labelNames: ['credential', 'outcome'],
      registers: [registry],
    }),
    failedSignIns,
  );
  new Gauge({
    name: 'gateway_table_bytes',
    help: "Estimated memory of the gateway's tables (rate limiters, credentials cache, failed logins), by table.",
    labelNames: ['table'],
    registers: [registry],
    collect() {
      const tables = {
        account_limiter: limiter.table.bytes,
        session_limiter: sessionLimiter.table.bytes,
        ...authenticator.tableBytes,
      };
      for (const [table, bytes] of Object.entries(tables)) this.set({ table }, bytes);
    },
  });
  const hrefs = new Hrefs(config.PUBLIC_BASE_URL);
  const deps: RouteDeps = { hrefs, accounts, applications, addresses, webhooks, logger };

  let accepting = false;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');

  // Request id, logger, metrics and access log for every request.
  app.use(requestId(logger));
  app.use(accessLog(logger, registry));

  // Operations endpoints (/healthz, /readyz, /metrics) are served on their own port (start()); the
  // public port answers only /healthz, for load balancers that probe the port they send traffic to.
  const ops: OpsHandlers = {
    registry,
    accepting: () => accepting,
    ready: async () => {
      const [a, w] = await Promise.all([
        health.applications
          .check({ service: '' })
          .then((r) => r.status === 'SERVING')
          .catch(() => false),
        health.webhooks
          .check({ service: '' })
          .then((r) => r.status === 'SERVING')
          .catch(() => false),
      ]);
      return { applications: a, webhooks: w };
    },
  };
  app.get('/healthz', (req: Request, res: Response, next: NextFunction) => {
    handleOpsRequest(req, res, ops).then((handled) => (handled ? undefined : next()), next);
  });

  // The API description and its reference page are public.
  const openapi = JSON.stringify(buildOpenApi(config.PUBLIC_BASE_URL));
  app.get('/openapi.json', (_req: Request, res: Response) => {
    res.type('application/json').send(openapi);
  });
  apiReferenceRoutes(app);

  // The console: a single-page app of the same origin as the API, which `/` sends browsers to.
  consoleRoutes(app, config.CONSOLE_DIR);

  // The Session API: the token (or the session id) is the credential, so it is mounted before the
  // Basic-auth API, which would otherwise claim /v1/sessions.
  const sessionApi = express.Router();
  sessionRoutes(sessionApi, { sessions, limiter: sessionLimiter });
  app.use(
    ['/1.0/sessions', '/v1/sessions', '/rest/v1/sessions'],
    jsonOrFormBody({ limitBytes: config.BODY_LIMIT_BYTES }),
    sessionApi,
  );

  // A write a browser marks as coming from another site is refused before anything else looks at
  // it, whatever credential it carries (http/cross-site.ts); the Session API above is not affected.
  app.use(['/v1', '/rest/v1', '/addresses'], refuseCrossSiteWrites(origin));

  // The API: authentication and the per-account rate limit (before any body is read), the JSON
  // body, then the routes. Paths outside the API are 404 without asking for credentials.
  // Browser sign-in and sign-out take no Authorization: they come before it.
  const consoleApi = express.Router();
  consoleSessionRoutes(
    consoleApi,
    {
      hrefs,
      accounts,
      consoleSessions,
      failedSignIns,
      passwords: authenticator,
      trustedProxies: config.TRUSTED_PROXIES,
      origin,
    },
    jsonBody({ limitBytes: config.BODY_LIMIT_BYTES }),
  );
  app.use(['/v1', '/rest/v1'], consoleApi);

  const api = express.Router();
  applicationRoutes(api, deps);
  apiKeyRoutes(api, { hrefs, apiKeys, keys: keyVerifier, passwords: authenticator });
  auditRoutes(api, { hrefs, audit, webhooks });
  passwordRoutes(api, {
    ...deps,
    passwords: authenticator,
    failedSignIns,
    trustedProxies: config.TRUSTED_PROXIES,
    keys: keyVerifier,
  });
  applicationSecretRoutes(api, deps);
  accountRoutes(api, deps);
  webhookRoutes(api, deps);
  deliveryToolRoutes(api, deps);
  deliveryInsightRoutes(api, deps);
  addressRoutes(api, deps);
  sessionRecordRoutes(api, deps);
  alertRoutes(api, deps);
  triggerRoutes(api, deps);
  const auth = authenticate(credentials, limiter, config.TRUSTED_PROXIES);
  const shed = shedBeforeWork(authenticator, config.TRUSTED_PROXIES, ['/v1/', '/rest/v1/', '/addresses']);
  app.use(['/v1', '/rest/v1'], auth, jsonBody({ limitBytes: config.BODY_LIMIT_BYTES }), api);
  // The Node Tropo client asks for free numbers at /addresses, without a version prefix.
  const unversioned = express.Router();
  availableNumbersRoute(unversioned, deps, '/');
  app.use('/addresses', auth, unversioned);

  app.use(notFoundHandler);
  app.use(problemHandler(logger));

  let server: Server | undefined;
  let opsServer: OpsServer | undefined;
  let revocations: RevocationFollower | undefined;
  return {
    logger,
    async start() {
      // Guesses over their address's budget are refused before Express sees them (http/authenticate.ts).
      // Every request but the load balancers' probe is traced, with the session tokens masked.
      const handle = (req: IncomingMessage, res: ServerResponse) => {
        if (!shed(req, res)) app(req, res);
      };
      server = createServer(
        { keepAliveTimeout: 65_000, headersTimeout: 66_000, requestTimeout: 120_000 },
        (req, res) => {
          if (req.url === '/healthz') handle(req, res);
          // A client's own trace context (its sampled flag) counts only through a trusted proxy.
          else
            tracedHttpRequest(
              req,
              res,
              () => handle(req, res),
              redactToken,
              (r) => isTrustedPeer(r.socket.remoteAddress, config.TRUSTED_PROXIES),
            );
        },
      );
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(config.PORT, config.HOST, () => resolve());
      });
      try {
        opsServer = await startOpsServer({ ...ops, port: config.OPS_PORT, host: config.HOST, logger });
      } catch (err) {
        // No half-started gateway: without its ops port it would never be ready or scraped.
        server.close();
        throw err;
      }
      sharedLimits?.start();
      revocations = followRevocations(
        { url: config.NATS_URL, user: config.NATS_USER, password: config.NATS_PASSWORD },
        keyVerifier,
        authenticator,
        logger,
      );
      accepting = true;
      const port = (server.address() as AddressInfo).port;
      logger.info({ port, opsPort: opsServer.port, publicBaseUrl: config.PUBLIC_BASE_URL }, 'gateway started');
      return { port, opsPort: opsServer.port };
    },
    async stop() {
      accepting = false;
      if (server) {
        const s = server;
        // Stop accepting, let in-flight requests finish, then drop idle keep-alive connections.
        const closed = new Promise<void>((resolve) => s.close(() => resolve()));
        s.closeIdleConnections();
        const timer = setTimeout(() => s.closeAllConnections(), 10_000);
        await closed;
        clearTimeout(timer);
      }
      await opsServer?.close();
      await revocations?.stop();
      await sharedLimits?.stop();
      for (const c of [
        accounts,
        applications,
        addresses,
        sessions,
        apiKeys,
        consoleSessions,
        audit,
        webhooks,
        health.applications,
        health.webhooks,
      ])
        c.close();
      batchers?.applications.close();
      batchers?.webhooks.close();
    },
  };
}
