// What every scenario reports, and the fixture most of them share: an account with an
// account-level subscription and an application, both pointing at a receiver on loopback.
import { randomBytes } from 'node:crypto';
import type { JsonBody } from '../../test/support/json';
import type { Cluster } from '../cluster';
import { basic, type Account } from '../lib/load';
import type { Receiver } from '../lib/receiver';
import { sleep } from '../lib/stats';

export interface ScenarioResult {
  name: string;
  /** Every check of the scenario held. */
  ok: boolean;
  /** The checks that did not hold (empty when ok). */
  failures: string[];
  /** API requests during the scenario and how many failed (status >= 400 or a transport error). */
  apiRequests?: number;
  apiFailed?: number;
  apiFailedByStatus?: Record<string, number>;
  eventsPublished?: number;
  eventsLost?: number;
  duplicates?: number;
  /** How long the fault lasted. */
  outageMs?: number;
  /** From the start of the fault to the end of the last failed API request (0: none failed). */
  apiRecoveryMs?: number;
  /** From the end of the fault until every event published so far was delivered. */
  deliveryRecoveryMs?: number;
  /** Anything else the scenario measured. */
  figures?: Record<string, unknown>;
  durationMs: number;
}

export interface Scale {
  /** Multiplies the fault and load durations: 1 in `npm run proof`, smaller in the tests. */
  factor: number;
}

export async function newAccount(cluster: Cluster, prefix: string): Promise<Account> {
  const username = `${prefix}_${randomBytes(4).toString('hex')}`;
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const id = await cluster.createAccount(username, password);
  return { id, username, password, authorization: basic(username, password) };
}

export async function api(
  cluster: Cluster,
  account: Account,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: JsonBody; headers: Headers }> {
  const res = await fetch(`${cluster.apiUrl}${path}`, {
    method,
    headers: {
      authorization: account.authorization,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, json, headers: res.headers };
}

export interface Target {
  account: Account;
  subscriptionId: string;
  applicationId: string;
  eventsPath: string;
  sessionsPath: string;
}

/** An account with a cdrCreated/call subscription to `<rx>/<name>/events` and an application whose voiceUrl is `<rx>/<name>/sessions`. */
/**
 * A subscription (cdrCreated) and an application whose voiceUrl is on `rx`. With `fallback`, the
 * application's voiceFallbackUrl is the same path on that receiver: sessions are real time, so a
 * session whose primary URL fails is sent there instead of being retried later.
 */
export async function newTarget(cluster: Cluster, rx: Receiver, name: string, fallback?: Receiver): Promise<Target> {
  const account = await newAccount(cluster, name.replace(/\W/g, '_'));
  const eventsPath = `/${name}/events`;
  const sessionsPath = `/${name}/sessions`;
  const hook = await api(cluster, account, 'POST', '/v1/webhooks', {
    event: 'cdrCreated',
    resource: 'call',
    targetUrl: rx.url(eventsPath),
  });
  if (hook.status !== 200) throw new Error(`subscription create: ${hook.status} ${JSON.stringify(hook.json)}`);
  const app = await api(cluster, account, 'POST', '/v1/applications', {
    name,
    voiceUrl: rx.url(sessionsPath),
    ...(fallback ? { voiceFallbackUrl: fallback.url(sessionsPath) } : {}),
  });
  if (app.status !== 200) throw new Error(`application create: ${app.status} ${JSON.stringify(app.json)}`);
  return {
    account,
    subscriptionId: String(hook.json.href).split('/').pop()!,
    applicationId: String(app.json.href).split('/').pop()!,
    eventsPath,
    sessionsPath,
  };
}

/** Waits until `done()` holds or the timeout passes; returns the time it held (or undefined). */
export async function until(done: () => boolean, timeoutMs: number): Promise<number | undefined> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (done()) return Date.now();
    await sleep(50);
  }
  return done() ? Date.now() : undefined;
}

export function finish(
  r: Omit<ScenarioResult, 'ok' | 'failures' | 'durationMs'>,
  started: number,
  checks: Record<string, boolean>,
): ScenarioResult {
  const failures = Object.entries(checks)
    .filter(([, ok]) => !ok)
    .map(([what]) => what);
  return { ...r, ok: failures.length === 0, failures, durationMs: Date.now() - started };
}
