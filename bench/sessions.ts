// The session loop, end to end: sessions.new published on JetStream -> signed POST to the
// application's voiceUrl (a local receiver answering JSON instructions) -> sessions.instructions
// back on JetStream. First the session rate the dispatcher sustains (publish as fast as JetStream
// takes them, time until the last instructions); then, at half that rate, the p99 from publish to
// the POST and from publish to the instructions.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectNats, createLogger, SUBJECTS } from '@switchboard/platform';
import { applicationsClient } from '@switchboard/proto';
import { waitFor } from '../test/support/infra';
import { fmt, percentile, startDeliveryStack, table } from './lib';

export interface SessionBenchResult {
  sessions: number;
  sessionsPerSecond: number;
  /** Sessions of the burst that failed (sessions.failed) instead of being instructed. */
  burstFailed: number;
  latency: { ratePerSecond: number; sessions: number; failed: number; post: Percentiles; instructions: Percentiles };
}

interface Percentiles {
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** The application: answers every session with instructions; notes when each session's POST arrived. */
export async function startApplication(): Promise<{ url: string; posts: Map<string, number>; close(): Promise<void> }> {
  const posts = new Map<string, number>();
  const answer = JSON.stringify({ tropo: [{ say: { value: 'Welcome to Switchboard' } }, { hangup: null }] });
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const now = Date.now();
      try {
        const { session } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { session: { id: string } };
        if (!posts.has(session.id)) posts.set(session.id, now);
      } catch {
        // not a session
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(answer);
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/voice`,
    posts,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

function percentiles(values: number[]): Percentiles {
  const s = [...values].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p90: percentile(s, 90), p99: percentile(s, 99), max: s[s.length - 1] ?? NaN };
}

export async function runSessionBench(opts: { sessions: number; latencySeconds: number }): Promise<SessionBenchResult> {
  const stack = await startDeliveryStack();
  const app = await startApplication();
  const bus = await connectNats(stack.natsUrl, createLogger('bench', 'warn'), 'bench');
  const apps = applicationsClient(stack.applicationsGrpc);
  // publish time, instructions time and failure reason by session id
  const published = new Map<string, number>();
  const instructed = new Map<string, number>();
  const failed = new Map<string, string>();
  const subs = [
    bus.nc.subscribe(SUBJECTS.sessionInstructions, { callback: (_e, m) => void instructed.set((m.json() as { sessionId: string }).sessionId, Date.now()) }),
    bus.nc.subscribe(SUBJECTS.sessionFailed, {
      callback: (_e, m) => {
        const f = m.json() as { sessionId: string; reason: string };
        failed.set(f.sessionId, f.reason);
      },
    }),
  ];
  try {
    const { application } = await apps.createApplication({ accountId: stack.accountId, name: 'bench', voiceUrl: app.url });
    const applicationId = application!.id;
    await stack.startDispatcher();

    const publish = async (count: number, prefix: string, paceMs?: number) => {
      const inflight = new Set<Promise<unknown>>();
      const started = Date.now();
      for (let i = 0; i < count; i++) {
        if (paceMs) {
          const wait = started + i * paceMs - Date.now();
          if (wait > 1) await new Promise((r) => setTimeout(r, wait));
        }
        const id = `${prefix}-${i}`;
        published.set(id, Date.now());
        const body = { applicationId, session: { id, callId: id, from: { id: '+14155550100', channel: 'VOICE', network: 'PSTN' }, to: { id: '+14155550199', channel: 'VOICE', network: 'PSTN' } } };
        const p = bus.js.publish(SUBJECTS.sessionNew, JSON.stringify(body)).finally(() => inflight.delete(p));
        inflight.add(p);
        if (inflight.size >= 256) await Promise.race(inflight);
      }
      await Promise.all(inflight);
    };
    /** Sessions of a phase that ended (instructed or failed). */
    const endedOf = (prefix: string) => [...instructed.keys(), ...failed.keys()].filter((k) => k.startsWith(`${prefix}-`)).length;
    const failedOf = (prefix: string) => [...failed.keys()].filter((k) => k.startsWith(`${prefix}-`)).length;

    // Warm-up: JIT, connections, the application lookup cache.
    await publish(300, 'warm');
    await waitFor(() => endedOf('warm') >= 300, { timeoutMs: 60_000, what: 'warm-up sessions' });

    // 1. Session rate: publish them all, time until the last instructions are out.
    const t0 = performance.now();
    await publish(opts.sessions, 'tp');
    await waitFor(() => endedOf('tp') >= opts.sessions, { timeoutMs: 300_000, intervalMs: 5, what: 'all sessions ended' });
    const sessionsPerSecond = (opts.sessions * 1000) / (performance.now() - t0);
    const burstFailed = failedOf('tp');
    process.stderr.write(`  sessions: ${fmt(sessionsPerSecond)} sessions/s (${opts.sessions} sessions, ${burstFailed} failed)\n`);

    // 2. Latency at half that rate.
    const rate = sessionsPerSecond / 2;
    const count = Math.max(200, Math.round(rate * opts.latencySeconds));
    await publish(count, 'lat', 1000 / rate);
    await waitFor(() => endedOf('lat') >= count, { timeoutMs: 120_000, intervalMs: 5, what: 'latency sessions' });
    const ids = [...published.keys()].filter((k) => k.startsWith('lat-') && instructed.has(k));
    const post = percentiles(ids.map((id) => app.posts.get(id)! - published.get(id)!));
    const instr = percentiles(ids.map((id) => instructed.get(id)! - published.get(id)!));
    process.stderr.write(`  at ${fmt(rate)} sessions/s: publish->POST p99 ${post.p99} ms, publish->instructions p99 ${instr.p99} ms\n`);
    const reasons = [...new Set(failed.values())].join(', ');
    if (failed.size) process.stderr.write(`  ${failed.size} sessions failed in all: ${reasons}\n`);
    return { sessions: opts.sessions, sessionsPerSecond, burstFailed, latency: { ratePerSecond: rate, sessions: count, failed: failedOf('lat'), post, instructions: instr } };
  } finally {
    subs.forEach((s) => s.unsubscribe());
    apps.close();
    await bus.close();
    await stack.stop();
    await app.close();
  }
}

export function printSessionResults(r: SessionBenchResult): string {
  const row = (name: string, p: Percentiles, target: number) => [name, `${p.p50} ms`, `${p.p90} ms`, `${p.p99} ms`, `${p.max} ms`, `< ${target} ms: ${p.p99 < target ? 'met' : 'NOT met'}`];
  return [
    `Session loop: sessions.new -> signed POST -> JSON answer -> sessions.instructions`,
    `session rate: ${fmt(r.sessionsPerSecond)} sessions/s (${r.sessions} sessions published at once, ${r.burstFailed} of them failed)`,
    `latency at ${fmt(r.latency.ratePerSecond)} sessions/s (half the measured rate, ${r.latency.sessions} sessions, ${r.latency.failed} failed):`,
    table([
      ['from publish to', 'p50', 'p90', 'p99', 'max', 'target (p99)'],
      row('the POST at the application', r.latency.post, 25),
      row('sessions.instructions', r.latency.instructions, 50),
    ]),
  ].join('\n');
}
