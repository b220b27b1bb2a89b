// Sustained load for the scenarios: API writes through the gateways' proxy (a fixed number of
// workers, each request logged with its time and outcome) and event bursts published to JetStream
// (docs/events.md#inbound) the way a producer would: every publish retried until JetStream acknowledges it,
// with the event id as Nats-Msg-Id so a retried publish is stored once.
import type { NatsHandle } from '@switchboard/messaging';
import { countByStatus } from './stats';

export interface RequestLog {
  start: number;
  end: number;
  /** HTTP status, or 0 for a transport error (connection reset, timeout). */
  status: number;
}

export interface ApiLoad {
  log: RequestLog[];
  stop(): Promise<void>;
}

export interface Account {
  id: string;
  username: string;
  password: string;
  authorization: string;
}

export const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;

export interface ApiLoadOptions {
  apiUrl: string;
  accounts: Account[];
  /** Workers, each with one request in flight. */
  concurrency: number;
  /** Requests per second over all workers (undefined = as fast as answered). */
  ratePerSecond?: number;
  /** URL the created applications' voiceUrl points at. */
  voiceUrl: string;
}

/**
 * Each worker creates an application, reads it back and, every fourth time, updates it: writes
 * and reads through every replica of the gateway and the applications service.
 */
export function startApiLoad(o: ApiLoadOptions): ApiLoad {
  const log: RequestLog[] = [];
  let running = true;
  let n = 0;
  const started = Date.now();
  const call = async (
    account: Account,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<Response | undefined> => {
    if (o.ratePerSecond) {
      const due = started + (n++ * 1000) / o.ratePerSecond;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    const start = Date.now();
    try {
      const res = await fetch(`${o.apiUrl}${path}`, {
        method,
        headers: { authorization: account.authorization, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(10_000),
      });
      await res.arrayBuffer();
      log.push({ start, end: Date.now(), status: res.status });
      return res;
    } catch {
      log.push({ start, end: Date.now(), status: 0 });
      return undefined;
    }
  };
  const worker = async (w: number) => {
    let i = 0;
    while (running) {
      const account = o.accounts[(w + i++) % o.accounts.length]!;
      const res = await call(account, 'POST', '/v1/applications', { name: `load ${w}-${i}`, voiceUrl: o.voiceUrl });
      if (!running) break;
      if (res?.ok) {
        const id = res.headers.get('location')?.split('/').pop();
        if (id) {
          await call(account, 'GET', `/v1/applications/${id}`);
          if (running && i % 4 === 0)
            await call(account, 'PUT', `/v1/applications/${id}`, { name: `renamed ${w}-${i}` });
        }
      } else if (!res) await new Promise((r) => setTimeout(r, 50));
    }
  };
  const workers = Array.from({ length: o.concurrency }, (_, w) => worker(w));
  return {
    log,
    async stop() {
      running = false;
      await Promise.all(workers);
    },
  };
}

export interface ApiSummary {
  requests: number;
  failed: number;
  /** Failed requests by status (0 = transport error). */
  failedByStatus: Record<string, number>;
  /** End of the last failed request, ms after `from` (0 when none failed). */
  lastFailureAfterMs: number;
}

export function summarizeApi(log: RequestLog[], from: number): ApiSummary {
  const failed = log.filter((r) => r.status === 0 || r.status >= 400);
  const last = failed.reduce((m, r) => Math.max(m, r.end), 0);
  return {
    requests: log.length,
    failed: failed.length,
    failedByStatus: countByStatus(failed),
    lastFailureAfterMs: failed.length ? Math.max(0, last - from) : 0,
  };
}

export interface EventLoad {
  /** Event ids that JetStream acknowledged. */
  published: Set<string>;
  /** Publish attempts that failed and were retried (NATS down). */
  publishRetries: number;
  stop(): Promise<void>;
}

export interface EventLoadOptions {
  bus: NatsHandle;
  /** Events per second. */
  ratePerSecond: number;
  /** Builds the subject and body of event number i. */
  make(i: number): { subject: string; id: string; body: unknown };
  /** Stop after this many events (default: until stop()). */
  count?: number;
  /** Events published at once per tick (a burst); default 1. */
  burst?: number;
}

export function startEventLoad(o: EventLoadOptions): EventLoad & { done: Promise<void> } {
  const published = new Set<string>();
  let retries = 0;
  let running = true;
  const inflight = new Set<Promise<void>>();
  const publishOne = async (subject: string, id: string, body: string) => {
    for (;;) {
      try {
        await o.bus.js.publish(subject, body, { msgID: id, timeout: 5000 });
        published.add(id);
        return;
      } catch {
        retries++;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  };
  const burst = o.burst ?? 1;
  const done = (async () => {
    const t0 = Date.now();
    for (let i = 0; running && (o.count === undefined || i < o.count); i += burst) {
      const due = t0 + (i * 1000) / o.ratePerSecond;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      for (let k = i; k < i + burst && (o.count === undefined || k < o.count); k++) {
        const e = o.make(k);
        const p: Promise<void> = publishOne(e.subject, e.id, JSON.stringify(e.body)).finally(() => inflight.delete(p));
        inflight.add(p);
      }
      while (inflight.size >= 512) await Promise.race(inflight);
    }
    await Promise.all(inflight);
  })();
  return {
    published,
    get publishRetries() {
      return retries;
    },
    done,
    async stop() {
      running = false;
      await done;
    },
  };
}

/** A docs/events.md#inbound `cdr.created` event. */
export function cdrEvent(id: string, accountId: string, applicationId?: string) {
  return {
    subject: 'cdr.created',
    id,
    body: {
      id,
      accountId,
      ...(applicationId ? { applicationId } : {}),
      resource: 'call',
      timestamp: new Date().toISOString(),
      data: { callId: id, from: '+14155550100', to: '+14155550199', durationSeconds: 42 },
    },
  };
}

/** A docs/events.md#inbound `sessions.new` event for an application. */
export function sessionEvent(id: string, accountId: string, applicationId: string) {
  return {
    subject: 'sessions.new',
    id,
    body: {
      applicationId,
      session: {
        id,
        accountId,
        callId: id,
        timestamp: new Date().toISOString(),
        from: { id: '+14155550100', e164Id: '+14155550100', name: 'unknown', channel: 'VOICE', network: 'SIP' },
        to: { id: '+14155550199', e164Id: '+14155550199', name: 'unknown', channel: 'VOICE', network: 'SIP' },
        headers: {},
        initialText: null,
        userType: 'HUMAN',
      },
    },
  };
}
