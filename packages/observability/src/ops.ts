// The operations endpoint every long-running process serves: /healthz, /readyz, /metrics.
import { createServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { Logger } from './logger.ts';

export type ReadinessCheck = () => Promise<Record<string, boolean>>;

export interface OpsHandlers {
  registry: Registry;
  /** Named dependency checks; ready only when all are true. */
  ready: ReadinessCheck;
  /** False once shutdown started: readiness fails so load balancers stop sending traffic. */
  accepting?: () => boolean;
}

/** Answers an ops path, or returns false when the path is not one of them. */
export async function handleOpsRequest(req: IncomingMessage, res: ServerResponse, h: OpsHandlers): Promise<boolean> {
  const path = (req.url ?? '/').split('?')[0];
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (path === '/healthz') {
    send(res, 200, 'application/json', JSON.stringify({ status: 'ok' }));
    return true;
  }
  if (path === '/readyz') {
    let checks: Record<string, boolean>;
    try {
      checks = await withTimeout(h.ready(), 2000);
    } catch {
      checks = { checks: false };
    }
    const accepting = h.accepting ? h.accepting() : true;
    const ok = accepting && Object.values(checks).every(Boolean);
    send(
      res,
      ok ? 200 : 503,
      'application/json',
      JSON.stringify({ status: ok ? 'ready' : 'not ready', accepting, checks }),
    );
    return true;
  }
  if (path === '/metrics') {
    send(res, 200, h.registry.contentType, await h.registry.metrics());
    return true;
  }
  return false;
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}

export async function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export interface OpsServer {
  port: number;
  close(): Promise<void>;
}

export async function startOpsServer(
  opts: OpsHandlers & { port: number; host?: string; logger: Logger },
): Promise<OpsServer> {
  const server: Server = createServer((req, res) => {
    handleOpsRequest(req, res, opts)
      .then((handled) => {
        if (!handled) send(res, 404, 'application/json', JSON.stringify({ status: 'not found' }));
      })
      .catch((err: unknown) => {
        opts.logger.error({ err }, 'ops request failed');
        if (!res.headersSent) send(res, 500, 'application/json', '{"status":"error"}');
      });
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '0.0.0.0', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
