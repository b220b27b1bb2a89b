// When a request finishes: its request counter and duration (by method, route template and status)
// and one access log line.
import type { NextFunction, Request, Response } from 'express';
import { Counter, Histogram, LATENCY_BUCKETS, type Logger, type Registry } from '@switchboard/observability';

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
      const routeLabel = OPS_PATHS.has(req.originalUrl.split('?')[0]!)
        ? 'ops'
        : req.route?.path
          ? `${req.baseUrl}${String(req.route.path)}`
          : 'unmatched';
      const labels = { method: req.method, route: routeLabel, status: String(res.statusCode) };
      requests.inc(labels);
      duration.observe(labels, seconds);
      // One access line per request: errors always, API requests at info, probes at debug.
      const level = res.statusCode >= 500 && routeLabel !== 'ops' ? 'error' : routeLabel === 'ops' ? 'debug' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const line = {
        method: req.method,
        path: redactToken(req.originalUrl).slice(0, 512),
        status: res.statusCode,
        ms: Math.round(seconds * 1e4) / 10,
        account: req.state.principal?.accountId,
      };
      req.state.log[level](line, 'request');
    });
    next();
  };
}

/** Percent-encoded or not, in any case: what may name a credential in a URL ("token", "sessions"). */
const MAY_NAME_CREDENTIAL = /token|sessions|%[0-9a-f]{2}/i;

/** A URL component decoded, lower-case; undecodable text as it is. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text).toLowerCase();
  } catch {
    return text.toLowerCase();
  }
}

/**
 * The URL with the Session API's credentials masked, whatever their percent-encoding: the value of
 * a `token` query parameter, a token in an address path (`.../addresses/token/<token>`), and the
 * session id of a signal (`.../sessions/<id>/signals`), which is as good as a credential for it.
 */
export function redactToken(url: string): string {
  // Most URLs name no credential: one test instead of a parse.
  if (!MAY_NAME_CREDENTIAL.test(url)) return url;
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const segments = path.split('/');
  for (let i = 1; i < segments.length; i++) {
    const before = decoded(segments[i - 1]!);
    const masked =
      (before === 'token' && i >= 2 && decoded(segments[i - 2]!) === 'addresses') ||
      (before === 'sessions' && segments[i] !== '');
    if (masked) segments[i] = '***';
  }
  if (q === -1) return segments.join('/');
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq !== -1 && decoded(pair.slice(0, eq).replace(/\+/g, ' ')) === 'token'
        ? `${pair.slice(0, eq)}=***`
        : pair;
    })
    .join('&');
  return `${segments.join('/')}?${query}`;
}
