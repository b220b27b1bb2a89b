// The session loop, end to end: sessions.new published on JetStream -> signed POST to the
// application's voiceUrl (a local receiver answering JSON instructions) -> sessions.instructions
// back on JetStream. First the session rate the dispatcher sustains (publish as fast as JetStream
// takes them, time until the last instructions); then, at half that rate, the p99 from publish to
// the POST and from publish to the instructions. Then the same two figures for sessions routed by
// address (no applicationId: the application is the owner of the number dialled, session.to.id).
// Last, the CPU per session of every process (services, NATS, Postgres, the bench) without
// sessionStatus and alert subscriptions and with both: what the status events and alerts cost.
import pg from 'pg';
import { connectNats, type NatsHandle } from '@switchboard/messaging';
import { SUBJECTS } from '@switchboard/events';
import { createLogger } from '@switchboard/observability';
import { addressesClient, webhooksClient } from '@switchboard/proto';
import { cpuByProcess, cpuUsedBetween } from './dispatcher';
import { waitFor } from '../test/support/infra';
import { startReceiver } from '../test/support/receiver';
import {
  addInventory,
  createBenchApplication,
  fmt,
  type Percentiles,
  percentiles,
  startDeliveryStack,
  table,
} from './lib';

export interface SessionBenchResult {
  sessions: number;
  sessionsPerSecond: number;
  /** Sessions of the burst that failed (sessions.failed) instead of being instructed. */
  burstFailed: number;
  latency: { ratePerSecond: number; sessions: number; failed: number; post: Percentiles; instructions: Percentiles };
  /** The same, for sessions routed by the number dialled (over `numbers` numbers of the application). */
  routed: {
    numbers: number;
    sessionsPerSecond: number;
    burstFailed: number;
    latency: { sessions: number; failed: number; post: Percentiles; instructions: Percentiles };
  };
  /** CPU per session (µs, all processes) without and with sessionStatus and alert subscriptions. */
  statusCost: { sessions: number; without: CpuPerSession; with: CpuPerSession; ratio: number; events: number };
}

export interface CpuPerSession {
  totalUs: number;
  perProcessUs: Record<string, number>;
}

/** Numbers the application claims for the routed sessions (each one's owner is looked up once, then cached). */
const ROUTED_NUMBERS = 20;

/** The application: answers every session with instructions; notes when each session's POST arrived. */
export async function startApplication(): Promise<{ url: string; posts: Map<string, number>; close(): Promise<void> }> {
  const posts = new Map<string, number>();
  const answer = {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ tropo: [{ say: { value: 'Welcome to Switchboard' } }, { hangup: null }] }),
  };
  const rx = await startReceiver({
    keep: false,
    observe: (r) => {
      // other bodies are not sessions
      const id = (r.body as { session?: { id?: string } } | undefined)?.session?.id;
      if (id && !posts.has(id)) posts.set(id, r.at);
    },
  });
  rx.on('/voice', () => answer);
  return { url: rx.url('/voice'), posts, close: () => rx.close() };
}

/** Sessions the dispatcher gave up on (sessions.failed) from now on, by id, with the reason; `stop` ends the watch. */
export function watchFailedSessions(bus: NatsHandle): Map<string, string> & { stop(): void } {
  const failed = new Map<string, string>();
  const sub = bus.nc.subscribe(SUBJECTS.sessionFailed, {
    callback: (_e, m) => {
      const f = m.json() as { sessionId: string; reason: string };
      failed.set(f.sessionId, f.reason);
    },
  });
  return Object.assign(failed, { stop: () => sub.unsubscribe() });
}

export async function runSessionBench(opts: {
  sessions: number;
  latencySeconds: number;
  /** Sessions of each run of the status events' cost. */
  statusSessions: number;
}): Promise<SessionBenchResult> {
  const stack = await startDeliveryStack();
  const app = await startApplication();
  const bus = await connectNats(stack.natsUrl, createLogger('bench', 'warn'), 'bench');
  const addresses = addressesClient(stack.applicationsGrpc);
  // publish time, instructions time and failure reason by session id
  const published = new Map<string, number>();
  const instructed = new Map<string, number>();
  const subs = [
    bus.nc.subscribe(SUBJECTS.sessionInstructions, {
      callback: (_e, m) => void instructed.set((m.json() as { sessionId: string }).sessionId, Date.now()),
    }),
  ];
  const failed = watchFailedSessions(bus);
  try {
    const applicationId = await createBenchApplication(stack, app.url);
    addInventory(stack.env, [`+14075550000..+1407555${String(ROUTED_NUMBERS - 1).padStart(4, '0')}`]);
    const numbers: string[] = [];
    for (let i = 0; i < ROUTED_NUMBERS; i++) {
      const { address } = await addresses.claimAddress({
        accountId: stack.accountId,
        applicationId,
        type: 'number',
        prefix: '1407',
      });
      numbers.push(address!.value);
    }
    await stack.startDispatcher();

    /** `routed`: without applicationId, dialled at one of the application's numbers (written without "+"). */
    const publish = async (count: number, prefix: string, paceMs?: number, routed = false) => {
      const inflight = new Set<Promise<unknown>>();
      const started = Date.now();
      for (let i = 0; i < count; i++) {
        if (paceMs) {
          const wait = started + i * paceMs - Date.now();
          if (wait > 1) await new Promise((r) => setTimeout(r, wait));
        }
        const id = `${prefix}-${i}`;
        published.set(id, Date.now());
        const to = routed
          ? { id: numbers[i % numbers.length]!.slice(1), channel: 'VOICE', network: 'PSTN' }
          : { id: '+14155550199', channel: 'VOICE', network: 'PSTN' };
        const session = { id, callId: id, from: { id: '+14155550100', channel: 'VOICE', network: 'PSTN' }, to };
        const body = routed ? { session } : { applicationId, session };
        const p = bus.js.publish(SUBJECTS.sessionNew, JSON.stringify(body)).finally(() => inflight.delete(p));
        inflight.add(p);
        if (inflight.size >= 256) await Promise.race(inflight);
      }
      await Promise.all(inflight);
    };
    /** Sessions of a phase that ended (instructed or failed). */
    const endedOf = (prefix: string) =>
      [...instructed.keys(), ...failed.keys()].filter((k) => k.startsWith(`${prefix}-`)).length;
    const failedOf = (prefix: string) => [...failed.keys()].filter((k) => k.startsWith(`${prefix}-`)).length;

    // Warm-up: JIT, connections, the application lookup cache.
    await publish(300, 'warm');
    await waitFor(() => endedOf('warm') >= 300, { timeoutMs: 60_000, what: 'warm-up sessions' });

    // 1. Session rate: publish them all, time until the last instructions are out.
    const t0 = performance.now();
    await publish(opts.sessions, 'tp');
    await waitFor(() => endedOf('tp') >= opts.sessions, {
      timeoutMs: 300_000,
      intervalMs: 5,
      what: 'all sessions ended',
    });
    const sessionsPerSecond = (opts.sessions * 1000) / (performance.now() - t0);
    const burstFailed = failedOf('tp');
    process.stderr.write(
      `  sessions: ${fmt(sessionsPerSecond)} sessions/s (${opts.sessions} sessions, ${burstFailed} failed)\n`,
    );

    // 2. Latency at half that rate.
    const rate = sessionsPerSecond / 2;
    const count = Math.max(200, Math.round(rate * opts.latencySeconds));
    const latencyOf = async (prefix: string, routed: boolean) => {
      await publish(count, prefix, 1000 / rate, routed);
      await waitFor(() => endedOf(prefix) >= count, { timeoutMs: 120_000, intervalMs: 5, what: `${prefix} sessions` });
      const ids = [...published.keys()].filter((k) => k.startsWith(`${prefix}-`) && instructed.has(k));
      const post = percentiles(ids.map((id) => app.posts.get(id)! - published.get(id)!));
      const instructions = percentiles(ids.map((id) => instructed.get(id)! - published.get(id)!));
      process.stderr.write(
        `  at ${fmt(rate)} sessions/s${routed ? ', routed' : ''}: publish->POST p99 ${post.p99} ms, publish->instructions p99 ${instructions.p99} ms\n`,
      );
      return { sessions: count, failed: failedOf(prefix), post, instructions };
    };
    const latency = await latencyOf('lat', false);

    // 3. The same, routed by the number dialled.
    const t1 = performance.now();
    await publish(opts.sessions, 'rtp', undefined, true);
    await waitFor(() => endedOf('rtp') >= opts.sessions, {
      timeoutMs: 300_000,
      intervalMs: 5,
      what: 'all routed sessions ended',
    });
    const routedPerSecond = (opts.sessions * 1000) / (performance.now() - t1);
    process.stderr.write(`  routed: ${fmt(routedPerSecond)} sessions/s (${failedOf('rtp')} failed)\n`);
    const routedLatency = await latencyOf('rlat', true);

    // 4. What sessionStatus and alert events cost: CPU per session of every process, from the
    // publish until every session's record is stored (and, subscribed, every status event delivered).
    const hooks = webhooksClient(stack.webhooksGrpc);
    const db = new pg.Client({ connectionString: stack.db.url });
    await db.connect();
    let statusEvents = 0;
    const statusRx = await startReceiver({
      keep: false,
      observe: () => {
        statusEvents++;
      },
    });
    statusRx.on('/status', () => 204);
    statusRx.on('/alerts', () => 204);
    const [applicationsProc, webhooksProc, dispatcherProc] = stack.procs;
    const pids = {
      applications: applicationsProc?.pid(),
      webhooks: webhooksProc?.pid(),
      dispatcher: dispatcherProc?.pid(),
    };
    const stored = async (prefix: string) =>
      Number(
        (await db.query(`select count(*)::int as n from webhooks.sessions where id like $1`, [`${prefix}-%`])).rows[0]
          .n,
      );
    const costOf = async (prefix: string, events: number): Promise<CpuPerSession> => {
      const n = opts.statusSessions;
      const before = statusEvents;
      const cpu0 = cpuByProcess(pids, stack.natsPort);
      await publish(n, prefix, 1000 / rate);
      await waitFor(async () => endedOf(prefix) >= n && (await stored(prefix)) >= n, {
        timeoutMs: 300_000,
        intervalMs: 20,
        what: `${prefix} sessions stored`,
      });
      await waitFor(() => statusEvents - before >= events, {
        timeoutMs: 300_000,
        intervalMs: 20,
        what: 'status events',
      });
      const used = cpuUsedBetween(cpu0, cpuByProcess(pids, stack.natsPort));
      const perProcessUs = Object.fromEntries(Object.entries(used).map(([k, v]) => [k, (v * 1e6) / n]));
      const totalUs = Object.values(perProcessUs).reduce((a, b) => a + b, 0);
      process.stderr.write(`  ${prefix}: ${fmt(totalUs)} µs of CPU per session (all processes)\n`);
      return { totalUs, perProcessUs };
    };
    const without = await costOf('nost', 0);
    for (const [event, path] of [
      ['sessionStatus', '/status'],
      ['alert', '/alerts'],
    ] as const)
      await hooks.createSubscription({
        accountId: stack.accountId,
        event,
        resource: 'all',
        targetUrl: statusRx.url(path),
      });
    // The dispatchers' subscription caches follow the change event: a short warm-up with them.
    const warmBefore = statusEvents;
    await publish(200, 'stwarm');
    await waitFor(() => statusEvents - warmBefore >= 400, { timeoutMs: 60_000, what: 'warm-up status events' });
    const withStatus = await costOf('st', 2 * opts.statusSessions);
    hooks.close();
    await db.end();
    await statusRx.close();
    const statusCost = {
      sessions: opts.statusSessions,
      without,
      with: withStatus,
      ratio: withStatus.totalUs / without.totalUs,
      events: 2 * opts.statusSessions,
    };

    const reasons = [...new Set(failed.values())].join(', ');
    if (failed.size) process.stderr.write(`  ${failed.size} sessions failed in all: ${reasons}\n`);
    return {
      sessions: opts.sessions,
      sessionsPerSecond,
      burstFailed,
      latency: { ratePerSecond: rate, ...latency },
      routed: {
        numbers: numbers.length,
        sessionsPerSecond: routedPerSecond,
        burstFailed: failedOf('rtp'),
        latency: routedLatency,
      },
      statusCost,
    };
  } finally {
    for (const s of subs) s.unsubscribe();
    failed.stop();
    addresses.close();
    await bus.close();
    await stack.stop();
    await app.close();
  }
}

export function printSessionResults(r: SessionBenchResult): string {
  const row = (name: string, p: Percentiles, target: number) => [
    name,
    `${p.p50} ms`,
    `${p.p90} ms`,
    `${p.p99} ms`,
    `${p.max} ms`,
    `< ${target} ms: ${p.p99 < target ? 'met' : 'NOT met'}`,
  ];
  return [
    `Session loop: sessions.new -> signed POST -> JSON answer -> sessions.instructions`,
    `session rate: ${fmt(r.sessionsPerSecond)} sessions/s (${r.sessions} sessions published at once, ${r.burstFailed} of them failed)`,
    `latency at ${fmt(r.latency.ratePerSecond)} sessions/s (half the measured rate, ${r.latency.sessions} sessions, ${r.latency.failed} failed):`,
    table([
      ['from publish to', 'p50', 'p90', 'p99', 'max', 'target (p99)'],
      row('the POST at the application', r.latency.post, 25),
      row('sessions.instructions', r.latency.instructions, 50),
    ]),
    `routed by the number dialled (no applicationId; ${r.routed.numbers} numbers): ${fmt(r.routed.sessionsPerSecond)} sessions/s at once (${r.routed.burstFailed} failed); at ${fmt(r.latency.ratePerSecond)} sessions/s (${r.routed.latency.failed} failed):`,
    table([
      ['from publish to', 'p50', 'p90', 'p99', 'max', 'target (p99)'],
      row('the POST at the application', r.routed.latency.post, 25),
      row('sessions.instructions', r.routed.latency.instructions, 50),
    ]),
    `CPU per session, all processes (${r.statusCost.sessions} sessions each at ${fmt(r.latency.ratePerSecond)}/s, until their records are stored and their status events delivered):`,
    table([
      ['subscriptions', 'µs per session', ...Object.keys(r.statusCost.with.perProcessUs)],
      cpuRow('none', r.statusCost.without, Object.keys(r.statusCost.with.perProcessUs)),
      cpuRow('sessionStatus and alert', r.statusCost.with, Object.keys(r.statusCost.with.perProcessUs)),
    ]),
    `status events and alerts add ${fmt((r.statusCost.ratio - 1) * 100)}% (${r.statusCost.events} events); target at most 10%: ${r.statusCost.ratio <= 1.1 ? 'met' : 'NOT met'}`,
  ].join('\n');
}

function cpuRow(name: string, c: CpuPerSession, processes: string[]): string[] {
  return [name, fmt(c.totalUs), ...processes.map((p) => fmt(c.perProcessUs[p] ?? 0))];
}
