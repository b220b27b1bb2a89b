// Composition root of the gateway: createApp(config) -> { start, stop }.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import {
  AppError,
  Counter,
  createLogger,
  createRegistry,
  handleOpsRequest,
  Histogram,
  LATENCY_BUCKETS,
  type Logger,
} from '@switchboard/platform';
import { accountsClient, addressesClient, applicationsClient, healthClient, webhooksClient } from '@switchboard/proto';
import { Authenticator } from './auth';
import { DOCS_HTML } from './docs';
import { buildOpenApi } from './openapi';
import type { Config } from './config';
import { Hrefs } from './hrefs';
import { accountRoutes } from './http/accounts';
import { addressRoutes, availableNumbersRoute } from './http/addresses';
import { applicationRoutes } from './http/applications';
import type { RouteDeps } from './http/deps';
import { problemHandler, notFoundHandler } from './http/problem';
import { webhookRoutes } from './http/webhooks';
import { RateLimiter } from './rate-limit';

export { loadConfig, type Config } from './config';

export interface GatewayApp {
  logger: Logger;
  start(): Promise<{ port: number }>;
  stop(): Promise<void>;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const JSON_TYPES = ['application/json', 'application/*+json'];
/** POST .../applications/:to/addresses/:type/:address moves an address and has no body. */
const MOVE_ADDRESS = /\/applications\/[^/]+\/addresses\/[^/]+\/[^/]+\/?$/;
const OPS_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** `application/json` or `application/<x>+json` (parameters such as charset are checked by the body parser). */
function isJsonType(header: string | undefined): boolean {
  const type = (header ?? '').split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9.!#$&^_-]+\+json$/.test(type);
}

export function createApp(config: Config, logger: Logger = createLogger('gateway', config.LOG_LEVEL)): GatewayApp {
  const registry = createRegistry('gateway');
  const grpcMetrics = { registry, prefix: 'gateway' };
  const clientOpts = { defaultTimeoutMs: config.GRPC_TIMEOUT_MS, metrics: grpcMetrics };
  const accounts = accountsClient(config.APPLICATIONS_GRPC_URL, clientOpts);
  const applications = applicationsClient(config.APPLICATIONS_GRPC_URL, clientOpts);
  const webhooks = webhooksClient(config.WEBHOOKS_GRPC_URL, clientOpts);
  const addresses = addressesClient(config.APPLICATIONS_GRPC_URL, clientOpts);
  const health = {
    applications: healthClient(config.APPLICATIONS_GRPC_URL, 'applications', { defaultTimeoutMs: 1000 }),
    webhooks: healthClient(config.WEBHOOKS_GRPC_URL, 'webhooks', { defaultTimeoutMs: 1000 }),
  };

  const requests = new Counter({
    name: 'gateway_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status.',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'gateway_http_request_duration_seconds',
    help: 'HTTP request time in seconds, by method, route template and status.',
    labelNames: ['method', 'route', 'status'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const authenticator = new Authenticator(accounts, {
    cacheTtlMs: config.AUTH_CACHE_TTL_MS,
    maxFailures: config.AUTH_MAX_FAILURES,
    lockoutMs: config.AUTH_LOCKOUT_MS,
    metrics: {
      cacheHits: new Counter({ name: 'gateway_auth_cache_hits_total', help: 'Requests authenticated from the verified-credentials cache.', registers: [registry] }),
      failures: new Counter({ name: 'gateway_auth_failures_total', help: 'Failed or locked-out authentication attempts.', registers: [registry] }),
    },
  });
  const limiter = new RateLimiter(config.RATE_LIMIT_PER_SECOND);
  const hrefs = new Hrefs(config.PUBLIC_BASE_URL);
  const deps: RouteDeps = { hrefs, accounts, applications, addresses, webhooks, logger };

  let accepting = false;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');

  // Request id, logger and metrics for every request.
  app.use((req: Request, res: Response, next: NextFunction) => {
    const incoming = req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', requestId);
    // The child logger is made on first use: most requests never log before they finish.
    let child: Logger | undefined;
    req.state = {
      requestId,
      get log() {
        child ??= logger.child({ requestId });
        return child;
      },
    };
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const routeLabel = req.route?.path ? `${req.baseUrl}${String(req.route.path)}` : OPS_PATHS.has(req.path) ? 'ops' : 'unmatched';
      const labels = { method: req.method, route: routeLabel, status: String(res.statusCode) };
      requests.inc(labels);
      duration.observe(labels, seconds);
      // One access line per request: errors always, API requests at info, probes and scrapes at debug.
      const level = res.statusCode >= 500 && routeLabel !== 'ops' ? 'error' : routeLabel === 'ops' ? 'debug' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const line = { method: req.method, path: req.originalUrl.slice(0, 512), status: res.statusCode, ms: Math.round(seconds * 1e4) / 10, account: req.state.principal?.accountId };
      req.state.log[level](line, 'request');
    });
    next();
  });

  // Operations endpoints: no authentication.
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (!OPS_PATHS.has(req.path)) return next();
    handleOpsRequest(req, res, {
      registry,
      accepting: () => accepting,
      ready: async () => {
        const [a, w] = await Promise.all([
          health.applications.check({ service: '' }).then((r) => r.status === 'SERVING').catch(() => false),
          health.webhooks.check({ service: '' }).then((r) => r.status === 'SERVING').catch(() => false),
        ]);
        return { applications: a, webhooks: w };
      },
    }).then((handled) => (handled ? undefined : next()), next);
  });

  // The API description and its reference page are public.
  const openapi = JSON.stringify(buildOpenApi(config.PUBLIC_BASE_URL));
  app.get('/openapi.json', (_req: Request, res: Response) => {
    res.type('application/json').send(openapi);
  });
  app.get('/docs', (_req: Request, res: Response) => {
    res.setHeader('Content-Security-Policy', "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'");
    res.type('text/html').send(DOCS_HTML);
  });

  // Authentication and per-account rate limit for everything else (before any body is read).
  app.use((req: Request, res: Response, next: NextFunction) => {
    authenticator.authenticate(req.headers.authorization, req.state.requestId).then(
      (p) => {
        req.state.principal = p;
        const wait = limiter.take(p.accountId);
        if (wait > 0) {
          res.setHeader('Retry-After', String(Math.ceil(wait / 1000)));
          return next(new AppError('rate_limited', 'rate limit exceeded for this account'));
        }
        next();
      },
      (err: unknown) => {
        const retryAfter = (err as { retryAfter?: number }).retryAfter;
        if (retryAfter) res.setHeader('Retry-After', String(retryAfter));
        next(err);
      },
    );
  });

  // JSON only: POST/PUT must declare application/json (415), bodies are size-limited (413). Only
  // POST and PUT carry a body this API reads; a body on GET or DELETE is ignored.
  const jsonBody = express.json({ limit: config.BODY_LIMIT_BYTES, type: JSON_TYPES, strict: false });
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'POST' && req.method !== 'PUT') return next();
    const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    if (!hasBody && (/\/secret\/rotate\/?$/.test(req.path) || MOVE_ADDRESS.test(req.path))) return next();
    if (hasBody ? !req.is(JSON_TYPES) : !isJsonType(req.headers['content-type'])) {
      return next(new AppError('unsupported_media_type', 'send the body as JSON with Content-Type: application/json'));
    }
    // Declared as JSON but empty: the client's body is missing, not of the wrong type.
    if (!hasBody) return next(AppError.invalid([{ field: 'body', message: 'is required: a JSON object' }]));
    jsonBody(req, res, next);
  });

  const api = express.Router();
  applicationRoutes(api, deps);
  accountRoutes(api, deps);
  webhookRoutes(api, deps);
  addressRoutes(api, deps);
  app.use(['/v1', '/rest/v1'], api);
  // The Node Tropo client asks for available numbers at /addresses, without a version prefix.
  const unversioned = express.Router();
  availableNumbersRoute(unversioned, deps);
  app.use(unversioned);

  app.use(notFoundHandler);
  app.use(problemHandler(logger));

  let server: Server | undefined;
  return {
    logger,
    async start() {
      server = createServer({ keepAliveTimeout: 65_000, headersTimeout: 66_000, requestTimeout: 120_000 }, app);
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(config.PORT, config.HOST, () => resolve());
      });
      accepting = true;
      const port = (server.address() as AddressInfo).port;
      logger.info({ port, publicBaseUrl: config.PUBLIC_BASE_URL }, 'gateway started');
      return { port };
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
      for (const c of [accounts, applications, addresses, webhooks, health.applications, health.webhooks]) c.close();
    },
  };
}
