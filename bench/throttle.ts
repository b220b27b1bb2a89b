// Throttle benchmark: what a throttled subscription costs while its deliveries wait. One dispatcher
// process; its CPU (and the NATS server's) is read from /proc over BENCH_THROTTLE_SECONDS while
// nothing happens (idle), then over as long while BENCH_THROTTLE_WAITING (10,000) deliveries of one
// subscription limited to BENCH_THROTTLE_RATE (1) per second wait for their slots. A waiting
// delivery is a retry job JetStream holds until its slot (nak with delay): the dispatcher should
// spend about what it spends idle plus the deliveries it makes at the rate.
import { connectNats } from '@switchboard/messaging';
import { createLogger } from '@switchboard/observability';
import { webhooksClient } from '@switchboard/proto';
import { execFileSync } from 'node:child_process';
import { waitFor } from '../test/support/infra';
import { startReceiver } from '../test/support/receiver';
import { cpuSecondsOf, fmt, startDeliveryStack, table } from './lib';

export interface ThrottleBenchResult {
  waiting: number;
  perSecond: number;
  seconds: number;
  /** Dispatcher and NATS CPU (ms per second of wall time), idle and while the deliveries wait. */
  idle: { dispatcherMsPerS: number; natsMsPerS: number };
  held: { dispatcherMsPerS: number; natsMsPerS: number; delivered: number; parked: number };
  /** Time to hold them all (publish to the last one waiting for its slot) and the dispatcher CPU it took per delivery. */
  holding: { ms: number; dispatcherUsPerDelivery: number };
}

async function metric(url: string, name: string): Promise<number> {
  const text = await (await fetch(url)).text();
  let sum = 0;
  for (const line of text.split('\n'))
    if (line.startsWith(`${name}{`) || line.startsWith(`${name} `))
      sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  return sum;
}

/** The pid of the private nats-server listening on `port`. */
function natsPid(port: number): number | undefined {
  const out = execFileSync('pgrep', ['-f', `nats-server.*${port}`])
    .toString()
    .trim()
    .split('\n')[0];
  return out ? Number(out) : undefined;
}

export async function runThrottleBench(opts: {
  waiting: number;
  perSecond: number;
  seconds: number;
}): Promise<ThrottleBenchResult> {
  const stack = await startDeliveryStack();
  let delivered = 0;
  const rx = await startReceiver({ keep: false, observe: () => void delivered++ });
  const bus = await connectNats(stack.natsUrl, createLogger('bench', 'warn'), 'bench');
  const hooks = webhooksClient(stack.webhooksGrpc);
  try {
    const { subscription } = await hooks.createSubscription({
      accountId: stack.accountId,
      event: 'cdrCreated',
      resource: 'call',
      targetUrl: rx.url('/throttled'),
      settingsJson: JSON.stringify({ rateLimit: { perSecond: opts.perSecond } }),
    });
    if (!subscription) throw new Error('no subscription');
    // Its account may have every one of them waiting (DELIVERY_BACKLOG_PER_ACCOUNT is 10,000 by default).
    const d = await stack.startDispatcher({ DELIVERY_BACKLOG_PER_ACCOUNT: String(opts.waiting * 2) });
    const metricsUrl = `http://127.0.0.1:${d.opsPort}/metrics`;
    const nats = natsPid(stack.natsPort);
    const cpu = () => ({ d: cpuSecondsOf(d.pid()!), n: nats ? cpuSecondsOf(nats) : 0, t: performance.now() });
    const rate = (a: ReturnType<typeof cpu>, b: ReturnType<typeof cpu>) => ({
      dispatcherMsPerS: ((b.d - a.d) * 1e6) / (b.t - a.t),
      natsMsPerS: ((b.n - a.n) * 1e6) / (b.t - a.t),
    });
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

    // Idle: started, nothing to deliver.
    await sleep(3000);
    const i0 = cpu();
    await sleep(opts.seconds * 1000);
    const idle = rate(i0, cpu());

    // Hold them all: publish, then wait until every one but the first waits for its slot.
    const h0 = cpu();
    const publishing = new Set<Promise<unknown>>();
    for (let i = 0; i < opts.waiting; i++) {
      const p = bus.js
        .publish(
          'cdr.created',
          JSON.stringify({
            id: `t-${i}`,
            accountId: stack.accountId,
            resource: 'call',
            timestamp: new Date().toISOString(),
            data: { durationSeconds: 42 },
          }),
        )
        .finally(() => publishing.delete(p));
      publishing.add(p);
      if (publishing.size >= 256) await Promise.race(publishing);
    }
    await Promise.all(publishing);
    await waitFor(async () => (await metric(metricsUrl, 'dispatcher_deliveries_throttled_total')) >= opts.waiting - 1, {
      what: 'every delivery held',
      timeoutMs: 300_000,
      intervalMs: 100,
    });
    // Settled: the throttled consumer has handed every held job back once (they wait as unacknowledged messages).
    await waitFor(
      async () => {
        const c = await bus.jsm.consumers.info('SWITCHBOARD_DELIVERIES', 'dispatcher-deliveries-throttled');
        return c.num_pending === 0;
      },
      { what: 'the held jobs settled', timeoutMs: 120_000, intervalMs: 200 },
    );
    const h1 = cpu();
    const holding = { ms: h1.t - h0.t, dispatcherUsPerDelivery: ((h1.d - h0.d) * 1e6) / opts.waiting };

    // Held: the same time as idle, while they wait.
    const before = delivered;
    const parked0 = await metric(metricsUrl, 'dispatcher_retries_parked_total');
    await sleep(1000);
    const w0 = cpu();
    await sleep(opts.seconds * 1000);
    const w1 = cpu();
    const held = {
      ...rate(w0, w1),
      delivered: delivered - before,
      parked: (await metric(metricsUrl, 'dispatcher_retries_parked_total')) - parked0,
    };
    return { waiting: opts.waiting, perSecond: opts.perSecond, seconds: opts.seconds, idle, held, holding };
  } finally {
    hooks.close();
    await bus.close();
    await rx.close();
    await stack.stop();
  }
}

export function printThrottleResults(r: ThrottleBenchResult): string {
  return [
    `## Throttle: ${fmt(r.waiting)} deliveries of one subscription waiting at ${r.perSecond}/s (one dispatcher)`,
    '',
    table([
      ['', 'dispatcher CPU (ms/s)', 'NATS CPU (ms/s)', 'delivered', 'parked again'],
      ['idle', fmt(r.idle.dispatcherMsPerS, 1), fmt(r.idle.natsMsPerS, 1), '', ''],
      [
        `${fmt(r.waiting)} waiting`,
        fmt(r.held.dispatcherMsPerS, 1),
        fmt(r.held.natsMsPerS, 1),
        fmt(r.held.delivered),
        fmt(r.held.parked),
      ],
    ]),
    '',
    `Holding them (publish to the last held, settled): ${fmt(r.holding.ms)} ms, ${fmt(r.holding.dispatcherUsPerDelivery)} us dispatcher CPU per delivery; each measured over ${r.seconds} s.`,
    '',
  ].join('\n');
}
