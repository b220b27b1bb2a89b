// HTTP receivers on loopback for delivery tests: they record every request and answer what the
// test tells them per path (a status, headers, or a hang), and can close and listen again.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  body: any;
  at: number;
}

/**
 * What a receiver answers: a status, optionally with headers and a body; `endless` sends the
 * headers and the body, then keeps the response open, writing a space now and then; 'hang' never answers.
 */
export type ReceiverAnswer = { status: number; headers?: Record<string, string>; body?: string; endless?: boolean };
export type Responder = (req: Received, count: number) => number | ReceiverAnswer | 'hang';

export interface Receiver {
  port: number;
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

export async function startReceiver(port = 0): Promise<Receiver> {
  const received: Received[] = [];
  const responders = new Map<string, Responder>();
  const counts = new Map<string, number>();
  const ok = new Map<string, Set<string>>();
  const sockets = new Set<Socket>();
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = undefined;
      }
      const path = (req.url ?? '/').split('?')[0]!;
      const r: Received = { path, headers: req.headers, raw, body, at: Date.now() };
      received.push(r);
      const n = (counts.get(path) ?? 0) + 1;
      counts.set(path, n);
      const answer = responders.get(path)?.(r, n) ?? 200;
      if (answer === 'hang') return;
      const { status, headers, body: out, endless }: ReceiverAnswer = typeof answer === 'number' ? { status: answer } : answer;
      if (status >= 200 && status < 300) {
        let s = ok.get(path);
        if (!s) ok.set(path, (s = new Set()));
        s.add(String(req.headers['webhook-id']));
      }
      res.writeHead(status, headers ?? {});
      if (!endless) return void res.end(out);
      if (out) res.write(out);
      const drip = setInterval(() => res.write(' '), 100);
      res.on('close', () => clearInterval(drip));
    });
  };
  let server: Server;
  const listen = async (p: number) => {
    server = createServer(handler);
    server.on('connection', (s: Socket) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(p, '127.0.0.1', () => resolve());
    });
    return (server.address() as AddressInfo).port;
  };
  const actualPort = await listen(port);
  return {
    port: actualPort,
    url: (path) => `http://127.0.0.1:${actualPort}${path}`,
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
