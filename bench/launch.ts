// The Session API, end to end: POST /1.0/sessions with a token at the gateway -> LaunchSession in the
// applications service (registry, outbox) -> sessions.new on JetStream -> the dispatcher's signed
// POST arriving at the application's voiceUrl (a local receiver). First the launch rate the stack
// sustains (a closed loop of requests, timed until the last session POST arrived); then, at half
// that rate, the p99 from sending the request to the session POST arriving. The account's launch
// budget (SESSION_LAUNCH_RATE_PER_ACCOUNT) is raised far above what the benchmark sends, so the
// launches are measured, not the limiter's refusals (its bucket is still taken on every launch);
// more than MAX_ERROR_SHARE of launches refused or failed makes the run fail (launchErrors).
import { connectNats } from '@switchboard/messaging';
import { createLogger } from '@switchboard/observability';
import { addressesClient } from '@switchboard/proto';
import { waitFor } from '../test/support/infra';
import { createBenchApplication, fmt, type Percentiles, percentiles, startDeliveryStack, table } from './lib';
import { startApplication, watchFailedSessions } from './sessions';

export interface LaunchBenchResult {
  sessions: number;
  concurrency: number;
  launchesPerSecond: number;
  /** Launches answered per second in the burst (the HTTP side alone, before the last delivery). */
  answeredPerSecond: number;
  /** Launches refused (not 200) or whose session failed (sessions.failed) during the burst. */
  burstErrors: number;
  /** Launches answered other than 200, by status: of the burst, and of the paced run. */
  refused: { burst: Record<string, number>; paced: Record<string, number> };
  latency: { ratePerSecond: number; sessions: number; errors: number; arrived: Percentiles; answered: Percentiles };
}

/**
 * The account's launch budget in the benchmark: far above any rate two cores reach (the services'
 * maxima), so no launch is refused by it, while every launch still takes from its bucket in Postgres.
 */
const LAUNCH_BUDGET = { SESSION_LAUNCH_RATE_PER_ACCOUNT: '100000', SESSION_LAUNCH_BURST_PER_ACCOUNT: '1000000' };

/** Share of launches (of the burst, and of the paced run) that may be refused or fail before the run fails. */
export const MAX_ERROR_SHARE = 0.01;

/** Target of the brief: p99 from the request to the session POST at half the sustained rate. */
const P99_TARGET_MS = 50;

export async function runLaunchBench(opts: {
  sessions: number;
  latencySeconds: number;
  concurrency: number;
}): Promise<LaunchBenchResult> {
  const stack = await startDeliveryStack({ serviceEnv: LAUNCH_BUDGET });
  const app = await startApplication();
  const addresses = addressesClient(stack.applicationsGrpc);
  const bus = await connectNats(stack.natsUrl, createLogger('bench', 'warn'), 'bench');
  const failed = watchFailedSessions(bus);
  try {
    const applicationId = await createBenchApplication(stack, app.url);
    const { address } = await addresses.claimAddress({
      accountId: stack.accountId,
      applicationId,
      type: 'token',
      channel: 'voice',
    });
    const token = address!.value;
    await stack.startDispatcher();
    const port = await stack.startGateway({ SESSION_RATE_LIMIT_PER_SECOND: '0' });
    const url = `http://127.0.0.1:${port}/1.0/sessions`;

    const refused: Record<'warm' | 'burst' | 'paced', Record<string, number>> = { warm: {}, burst: {}, paced: {} };
    /** One launch of a phase: when it was sent, when it was answered, and its session id (undefined when refused). */
    const launch = async (
      i: number,
      phase: keyof typeof refused,
    ): Promise<{ sent: number; answered: number; id?: string }> => {
      const sent = Date.now();
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ token, numberToDial: '+14155550100', customer: `c-${i}` }),
      });
      const body = (await res.json()) as { id?: string };
      if (!(res.status === 200 && body.id)) refused[phase][res.status] = (refused[phase][res.status] ?? 0) + 1;
      return { sent, answered: Date.now(), ...(res.status === 200 && body.id ? { id: body.id } : {}) };
    };
    /** Waits until every session arrived or failed; answers how many failed. */
    const arrivedAll = async (ids: string[]) => {
      await waitFor(() => ids.every((id) => app.posts.has(id) || failed.has(id)), {
        timeoutMs: 120_000,
        intervalMs: 5,
        what: 'every session POST',
      });
      return ids.filter((id) => !app.posts.has(id)).length;
    };

    // Warm-up: JIT, connections, caches.
    const warm = await Promise.all(Array.from({ length: 200 }, (_, i) => launch(i, 'warm')));
    await arrivedAll(warm.flatMap((w) => (w.id ? [w.id] : [])));

    // 1. Launch rate: a closed loop of `concurrency` clients, timed until the last session POST arrived.
    const t0 = performance.now();
    const burst: { id?: string }[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: opts.concurrency }, async () => {
        while (next < opts.sessions) burst.push(await launch(next++, 'burst'));
      }),
    );
    const answeredPerSecond = (burst.length * 1000) / (performance.now() - t0);
    const burstIds = burst.flatMap((b) => (b.id ? [b.id] : []));
    const burstFailed = await arrivedAll(burstIds);
    const launchesPerSecond = ((burstIds.length - burstFailed) * 1000) / (performance.now() - t0);
    const burstErrors = burst.length - burstIds.length + burstFailed;
    process.stderr.write(
      `  launches: ${fmt(launchesPerSecond)} sessions/s delivered, ${fmt(answeredPerSecond)} answered/s (${opts.sessions} sessions, ${opts.concurrency} clients, ${burstErrors} refused or failed)\n`,
    );

    // 2. Latency at half that rate, paced (open loop).
    const rate = launchesPerSecond / 2;
    const count = Math.max(200, Math.round(rate * opts.latencySeconds));
    const started = Date.now();
    const paced = await Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const wait = started + (i * 1000) / rate - Date.now();
        if (wait > 1) await new Promise((r) => setTimeout(r, wait));
        return launch(i, 'paced');
      }),
    );
    const launched = paced.filter((p): p is { sent: number; answered: number; id: string } => !!p.id);
    await arrivedAll(launched.map((p) => p.id));
    const ok = launched.filter((p) => app.posts.has(p.id));
    if (failed.size)
      process.stderr.write(`  ${failed.size} sessions failed in all: ${[...new Set(failed.values())].join(', ')}\n`);
    const arrived = percentiles(ok.map((p) => app.posts.get(p.id)! - p.sent));
    const answered = percentiles(ok.map((p) => p.answered - p.sent));
    process.stderr.write(
      `  at ${fmt(rate)} sessions/s: request->session POST p99 ${arrived.p99} ms, request->answer p99 ${answered.p99} ms\n`,
    );
    return {
      sessions: opts.sessions,
      concurrency: opts.concurrency,
      launchesPerSecond,
      answeredPerSecond,
      burstErrors,
      refused: { burst: refused.burst, paced: refused.paced },
      latency: { ratePerSecond: rate, sessions: count, errors: count - ok.length, arrived, answered },
    };
  } finally {
    failed.stop();
    await bus.close();
    addresses.close();
    await stack.stop();
    await app.close();
  }
}

/**
 * Why the run's figures measure something other than launches: more than MAX_ERROR_SHARE of the
 * burst or of the paced launches refused or failed. Empty when they measure launches.
 */
export function launchErrors(r: LaunchBenchResult): string[] {
  return [
    { errors: r.burstErrors, of: r.sessions, what: 'launches of the burst', refused: r.refused.burst },
    { errors: r.latency.errors, of: r.latency.sessions, what: 'paced launches', refused: r.refused.paced },
  ]
    .filter((x) => x.errors > x.of * MAX_ERROR_SHARE)
    .map(
      (x) =>
        `${x.errors} of ${x.of} ${x.what} refused or failed, more than ${MAX_ERROR_SHARE * 100}% (refused by status: ${byStatus(x.refused)}): the figures do not measure launches`,
    );
}

const byStatus = (refused: Record<string, number>) =>
  Object.entries(refused)
    .map(([status, n]) => `${status}: ${n}`)
    .join(', ') || 'none';

export function printLaunchResults(r: LaunchBenchResult): string {
  const row = (name: string, p: Percentiles, target?: number) => [
    name,
    `${p.p50} ms`,
    `${p.p90} ms`,
    `${p.p99} ms`,
    `${p.max} ms`,
    target ? `< ${target} ms: ${p.p99 < target ? 'met' : 'NOT met'}` : '',
  ];
  return [
    'Session API: POST /1.0/sessions with a token -> sessions.new -> signed session POST at the application',
    `launch rate: ${fmt(r.launchesPerSecond)} sessions/s delivered, ${fmt(r.answeredPerSecond)} launches/s answered (${r.sessions} launches from ${r.concurrency} clients, ${r.burstErrors} refused or failed)`,
    `latency at ${fmt(r.latency.ratePerSecond)} sessions/s (half the measured rate, ${r.latency.sessions} launches, ${r.latency.errors} refused or failed):`,
    table([
      ['from the request to', 'p50', 'p90', 'p99', 'max', 'target (p99)'],
      row('the session POST at the application', r.latency.arrived, P99_TARGET_MS),
      row('the answer ({"success": true, ...})', r.latency.answered),
    ]),
    ...launchErrors(r).map((e) => `ERROR: ${e}`),
    `refused by status: burst ${byStatus(r.refused.burst)}, paced ${byStatus(r.refused.paced)}; at most ${MAX_ERROR_SHARE * 100}% refused or failed: ${launchErrors(r).length ? 'NOT met' : 'met'}`,
  ].join('\n');
}
