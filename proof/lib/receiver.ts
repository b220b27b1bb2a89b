// The proof's receivers: the shared loopback receiver (test/support/receiver.ts) with counts per path.
// Each path answers through a mode that a scenario can switch (ok, 500, 410, hang, redirect); every
// request is counted by its webhook-id and by the event id in its body, so losses and duplicates can be measured.
import { startReceiver as startHttpReceiver, type Received, type ReceiverAnswer } from '../../test/support/receiver';

export type Answer = number | 'hang' | { status: number; headers?: Record<string, string>; body?: string };
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
  const stats = new Map<string, PathStats>();
  const statsFor = (path: string) => {
    let s = stats.get(path);
    if (!s)
      stats.set(
        path,
        (s = { requests: 0, okByWebhookId: new Map(), okEvents: new Set(), firstOkAt: new Map(), log: [] }),
      );
    return s;
  };
  const observe = (r: Received, answer: ReceiverAnswer | 'hang') => {
    const s = statsFor(r.path);
    s.requests++;
    const webhookId = String(r.headers['webhook-id'] ?? '');
    // 'hang' never answers: the dispatcher's timeout must fire
    const status = answer === 'hang' ? 'hang' : answer.status;
    s.log.push({ at: r.at, status, webhookId });
    if (status === 'hang' || status < 200 || status >= 300) return;
    s.okByWebhookId.set(webhookId, (s.okByWebhookId.get(webhookId) ?? 0) + 1);
    // counted by webhook-id only when the body is not JSON
    const body = r.body as { id?: string; session?: { id?: string } } | undefined;
    const key = body?.session?.id ?? body?.id;
    if (key && !s.okEvents.has(key)) {
      s.okEvents.add(key);
      s.firstOkAt.set(key, r.at);
    }
  };
  const rx = await startHttpReceiver({ host, keep: false, observe });
  return {
    host,
    port: rx.port,
    url: rx.url,
    setMode(path, mode) {
      rx.on(path, () => (typeof mode === 'function' ? mode(path) : mode));
    },
    stats: statsFor,
    close: () => rx.close(),
  };
}

/** Deliveries answered 2xx beyond the first for the same webhook-id (at-least-once redeliveries). */
export function duplicates(s: PathStats): number {
  let n = 0;
  for (const c of s.okByWebhookId.values()) n += c - 1;
  return n;
}
