// HTTP receivers on loopback that stand in for customers' endpoints, for the tests, the benchmarks
// and the proof: they answer what they are told per path (a status, headers, a body, or a hang),
// record every request (or only hand each to an observer, under load), and can close and listen again.
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { JsonBody } from './json';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  /** The body as sent, and as UTF-8 text. */
  bytes: Buffer;
  raw: string;
  body: JsonBody;
  at: number;
}

/**
 * What a receiver answers: a status, optionally with headers and a body; `endless` sends the
 * headers and the body, then keeps the response open, writing a space now and then; `delayMs`
 * answers that much later; 'hang' never answers.
 */
export type ReceiverAnswer = {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  endless?: boolean;
  delayMs?: number;
};
export type Responder = (req: Received, count: number) => number | ReceiverAnswer | 'hang';

export interface ReceiverOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default a free one. */
  port?: number;
  /** Keep every request in `received` (default true); off for receivers under load, which observe instead. */
  keep?: boolean;
  /** Sees every request with what it is answered, as it is answered. */
  observe?: (req: Received, answer: ReceiverAnswer | 'hang') => void;
}

export interface Receiver {
  host: string;
  port: number;
  /** Connections accepted so far. */
  connections: number;
  url(path: string): string;
  received: Received[];
  on(path: string, responder: Responder): void;
  /** Requests for a path (or all). */
  at(path?: string): Received[];
  /** Distinct webhook-id values received on a path (or all) with a 2xx answer. */
  delivered(path?: string): Set<string>;
  close(): Promise<void>;
  /** Listens again on the same port. */
  reopen(): Promise<void>;
}

export async function startReceiver(opts: ReceiverOptions | number | string = {}): Promise<Receiver> {
  const o: ReceiverOptions =
    typeof opts === 'number' ? { port: opts } : typeof opts === 'string' ? { host: opts } : opts;
  const host = o.host ?? '127.0.0.1';
  const keep = o.keep ?? true;
  let connections = 0;
  const received: Received[] = [];
  const responders = new Map<string, Responder>();
  const counts = new Map<string, number>();
  const ok = new Map<string, Set<string>>();
  const sockets = new Set<Socket>();
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const bytes = Buffer.concat(chunks);
      const raw = bytes.toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = undefined;
      }
      const path = (req.url ?? '/').split('?')[0]!;
      const r: Received = { path, headers: req.headers, bytes, raw, body, at: Date.now() };
      if (keep) received.push(r);
      const n = (counts.get(path) ?? 0) + 1;
      counts.set(path, n);
      const given = responders.get(path)?.(r, n) ?? 200;
      const answer: ReceiverAnswer | 'hang' = typeof given === 'number' ? { status: given } : given;
      o.observe?.(r, answer);
      if (answer === 'hang') return;
      const { status, headers, body: out, endless, delayMs } = answer;
      const respond = () => {
        if (keep && status >= 200 && status < 300) {
          let s = ok.get(path);
          if (!s) ok.set(path, (s = new Set()));
          s.add(String(req.headers['webhook-id']));
        }
        res.writeHead(status, headers ?? {});
        if (!endless) return void res.end(out);
        if (out) res.write(out);
        const drip = setInterval(() => res.write(' '), 100);
        res.on('close', () => clearInterval(drip));
      };
      if (delayMs) setTimeout(respond, delayMs);
      else respond();
    });
  };
  let server: Server;
  const listen = async (p: number) => {
    server = createServer(handler);
    server.keepAliveTimeout = 30_000;
    server.on('connection', (s: Socket) => {
      connections++;
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(p, host, () => resolve());
    });
    return (server.address() as AddressInfo).port;
  };
  const actualPort = await listen(o.port ?? 0);
  return {
    host,
    port: actualPort,
    get connections() {
      return connections;
    },
    url: (path) => `http://${host}:${actualPort}${path}`,
    received,
    on: (path, responder) => void responders.set(path, responder),
    at: (path) => (path ? received.filter((r) => r.path === path) : received),
    delivered: (path) => {
      if (path) return ok.get(path) ?? new Set();
      const all = new Set<string>();
      for (const s of ok.values()) for (const id of s) all.add(id);
      return all;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
    async reopen() {
      await listen(actualPort);
    },
  };
}
