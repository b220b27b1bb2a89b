// HTTP receivers on loopback that stand in for customers' endpoints. Each path answers through a
// mode that a scenario can switch (ok, 500, 410, hang, redirect); every request is counted by its
// webhook-id and by the event id in its body, so losses and duplicates can be measured.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Answer = number | 'hang' | { status: number; headers?: Record<string, string> };
export type Mode = (path: string) => Answer;

export interface PathStats {
  /** Every request received. */
  requests: number;
  /** 2xx answers per webhook-id (more than 1 = a duplicate delivery). */
  okByWebhookId: Map<string, number>;
  /** Event ids (notification `id`, session `session.id`) answered 2xx. */
  okEvents: Set<string>;
  /** When each of those event ids was first answered 2xx (ms since epoch). */
  firstOkAt: Map<string, number>;
  /** Time of every request (ms since epoch) and the status answered. */
  log: Array<{ at: number; status: number | 'hang'; webhookId: string }>;
}

export interface Receiver {
  host: string;
  port: number;
  url(path: string): string;
  setMode(path: string, mode: Answer | Mode): void;
  stats(path: string): PathStats;
  close(): Promise<void>;
}

export async function startReceiver(host = '127.0.0.1'): Promise<Receiver> {
  const modes = new Map<string, Mode>();
  const stats = new Map<string, PathStats>();
  const statsFor = (path: string) => {
    let s = stats.get(path);
    if (!s) stats.set(path, (s = { requests: 0, okByWebhookId: new Map(), okEvents: new Set(), firstOkAt: new Map(), log: [] }));
    return s;
  };
  const sockets = new Set<Socket>();
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const s = statsFor(path);
      s.requests++;
      const webhookId = String(req.headers['webhook-id'] ?? '');
      const answer = modes.get(path)?.(path) ?? 200;
      const status = answer === 'hang' ? 'hang' : typeof answer === 'number' ? answer : answer.status;
      s.log.push({ at: Date.now(), status, webhookId });
      if (answer === 'hang') return; // never answers: the dispatcher's timeout must fire
      if (typeof status === 'number' && status >= 200 && status < 300) {
        s.okByWebhookId.set(webhookId, (s.okByWebhookId.get(webhookId) ?? 0) + 1);
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: string; session?: { id?: string } };
          const key = body.session?.id ?? body.id;
          if (key && !s.okEvents.has(key)) {
            s.okEvents.add(key);
            s.firstOkAt.set(key, Date.now());
          }
        } catch {
          // not JSON: counted by webhook-id only
        }
      }
      res.writeHead(typeof answer === 'number' ? answer : answer.status, typeof answer === 'object' ? answer.headers : undefined);
      res.end();
    });
  };
  const server: Server = createServer(handler);
  server.keepAliveTimeout = 30_000;
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    host,
    port,
    url: (path) => `http://${host}:${port}${path}`,
    setMode(path, mode) {
      modes.set(path, typeof mode === 'function' ? mode : () => mode);
    },
    stats: statsFor,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Deliveries answered 2xx beyond the first for the same webhook-id (at-least-once redeliveries). */
export function duplicates(s: PathStats): number {
  let n = 0;
  for (const c of s.okByWebhookId.values()) n += c - 1;
  return n;
}
