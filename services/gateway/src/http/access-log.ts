// When a request finishes: its request counter and duration (by method, route template and status)
// and one access log line.
import type { NextFunction, Request, Response } from 'express';
import { Counter, Histogram, LATENCY_BUCKETS, type Logger, type Registry } from '@switchboard/platform';

/** The probe the API port answers besides the routes: one `ops` route label, logged at debug. */
const OPS_PATHS = new Set(['/healthz']);

export function accessLog(logger: Logger, registry: Registry) {
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
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const routeLabel = OPS_PATHS.has(req.originalUrl.split('?')[0]!) ? 'ops' : req.route?.path ? `${req.baseUrl}${String(req.route.path)}` : 'unmatched';
      const labels = { method: req.method, route: routeLabel, status: String(res.statusCode) };
      requests.inc(labels);
      duration.observe(labels, seconds);
      // One access line per request: errors always, API requests at info, probes at debug.
      const level = res.statusCode >= 500 && routeLabel !== 'ops' ? 'error' : routeLabel === 'ops' ? 'debug' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const line = { method: req.method, path: redactToken(req.originalUrl).slice(0, 512), status: res.statusCode, ms: Math.round(seconds * 1e4) / 10, account: req.state.principal?.accountId };
      req.state.log[level](line, 'request');
    });
    next();
  };
}

const MAY_NAME_TOKEN = /token/i;

/**
 * The URL with session tokens masked: the value of a `token` query parameter (the Session API's
 * credential) and a token in an address path (`.../addresses/token/<token>`).
 */
export function redactToken(url: string): string {
  // Most URLs name no token: one test instead of two replacements with their captures.
  if (!MAY_NAME_TOKEN.test(url)) return url;
  return url.replace(/([?&]token=)[^&#]*/gi, '$1***').replace(/(\/addresses\/token\/)[^/?#]+/gi, '$1***');
}
