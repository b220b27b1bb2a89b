// Composition root of the gateway: createApp(config) -> { start, stop }.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import { Counter, createLogger, createRegistry, handleOpsRequest, type Logger } from '@switchboard/platform';
import { accountsClient, applicationsClient, healthClient, webhooksClient } from '@switchboard/proto';
import { Authenticator } from './auth';
import { DOCS_HTML } from './docs';
import { buildOpenApi } from './openapi';
import type { Config } from './config';
import { Hrefs } from './hrefs';
import { accessLog, OPS_PATHS } from './http/access-log';
import { accountRoutes } from './http/accounts';
import { applicationRoutes } from './http/applications';
import { authenticate } from './http/authenticate';
import type { RouteDeps } from './http/deps';
import { jsonBody } from './http/json-body';
import { problemHandler, notFoundHandler } from './http/problem';
import { requestId } from './http/request-id';
import { webhookRoutes } from './http/webhooks';
import { RateLimiter } from './rate-limit';

export { loadConfig, type Config } from './config';

export interface GatewayApp {
  logger: Logger;
  start(): Promise<{ port: number }>;
  stop(): Promise<void>;
}

export function createApp(config: Config, logger: Logger = createLogger('gateway', config.LOG_LEVEL)): GatewayApp {
  const registry = createRegistry('gateway');
  const grpcMetrics = { registry, prefix: 'gateway' };
  const clientOpts = { defaultTimeoutMs: config.GRPC_TIMEOUT_MS, metrics: grpcMetrics };
  const accounts = accountsClient(config.APPLICATIONS_GRPC_URL, clientOpts);
  const applications = applicationsClient(config.APPLICATIONS_GRPC_URL, clientOpts);
  const webhooks = webhooksClient(config.WEBHOOKS_GRPC_URL, clientOpts);
  const health = {
    applications: healthClient(config.APPLICATIONS_GRPC_URL, 'applications', { defaultTimeoutMs: 1000 }),
    webhooks: healthClient(config.WEBHOOKS_GRPC_URL, 'webhooks', { defaultTimeoutMs: 1000 }),
  };

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
  const deps: RouteDeps = { hrefs, accounts, applications, webhooks, logger };

  let accepting = false;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');

  // Request id, logger, metrics and access log for every request.
  app.use(requestId(logger));
  app.use(accessLog(logger, registry));

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

  // Authentication and per-account rate limit for everything else (before any body is read), then
  // the JSON body.
  app.use(authenticate(authenticator, limiter));
  app.use(jsonBody({ limitBytes: config.BODY_LIMIT_BYTES }));

  const api = express.Router();
  applicationRoutes(api, deps);
  accountRoutes(api, deps);
  webhookRoutes(api, deps);
  app.use(['/v1', '/rest/v1'], api);

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
      for (const c of [accounts, applications, webhooks, health.applications, health.webhooks]) c.close();
    },
  };
}
