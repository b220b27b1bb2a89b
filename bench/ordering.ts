// Ordering by key: events/s from publish to 2xx at a local receiver for a subscription with
// `ordering: {key: "callId"}`, nothing failing, against the same run to a subscription without
// ordering, on one stack and one dispatcher process: once with the events spread over `keys` keys
// (1,000: each key comes back every 1,000 events) and once with a key of its own per event. Runs
// alternate (unordered, keyed, one key per event) for `rounds` rounds; the rates are summed over
// the rounds. Prints the CPU per event of the dispatcher and the NATS server and what the
// ordering did (deliveries that waited for their key, bucket operations). Target: ordered at least
// 0.8x unordered.
import { connectNats } from '@switchboard/messaging';
import { createLogger } from '@switchboard/observability';
import { webhooksClient } from '@switchboard/proto';
import { metricSum, waitFor } from '../test/support/infra';
import { startReceiver } from '../test/support/receiver';
import { cpuByProcess, cpuUsedBetween } from './dispatcher';
import { createBenchAccount, fmt, startDeliveryStack } from './lib';

export interface OrderingRun {
  name: string;
  perSecond: number;
  ratio: number;
  /** CPU microseconds per event: dispatcher, nats. */
  cpuUs: Record<string, number>;
  /** Deliveries that waited for their key's turn, and operations on the ordering bucket, per event. */
  held: number;
  bucketOpsPerEvent: number;
}

export interface OrderingBenchResult {
  events: number;
  keys: number;
  rounds: number;
  runs: OrderingRun[];
}

export async function runOrderingBench(opts: {
  events: number;
  keys: number;
  rounds: number;
}): Promise<OrderingBenchResult> {
  const stack = await startDeliveryStack();
  const logger = createLogger('bench', 'warn');
  const bus = await connectNats(stack.natsUrl, logger, 'bench');
  const hooks = webhooksClient(stack.webhooksGrpc);
  const seen = new Set<string>();
  const rx = await startReceiver({
    keep: false,
    observe: (r) => {
      const id = (r.body as { id?: string } | undefined)?.id;
      if (id) seen.add(id);
    },
  });
  try {
    const sub = async (name: string, settings?: object) => {
      const accountId = createBenchAccount(stack.env, name);
      await hooks.createSubscription({
        accountId,
        event: 'cdrCreated',
        resource: 'call',
        targetUrl: rx.url(`/${name}`),
        ...(settings ? { settingsJson: JSON.stringify(settings) } : {}),
      });
      return accountId;
    };
    const plain = await sub('plain');
    const ordered = await sub('ordered', { ordering: { key: 'callId', maxHoldSeconds: 3600 } });
    const d = await stack.startDispatcher();
    const pid = d.pid();
    const counters = async () => {
      const text = await (await fetch(`http://127.0.0.1:${d.opsPort}/metrics`)).text();
      return {
        held: metricSum(text, 'dispatcher_ordering_held_total'),
        ops: metricSum(text, 'dispatcher_ordering_bucket_operations_total'),
      };
    };
    let batch = 0;
    const run = async (accountId: string, keys: number, n: number) => {
      seen.clear();
      const prefix = `b${batch++}`;
      const c0 = await counters();
      const cpu0 = cpuByProcess({ dispatcher: pid }, stack.natsPort);
      const t0 = performance.now();
      const inflight = new Set<Promise<unknown>>();
      for (let i = 0; i < n; i++) {
        const id = `${prefix}-${i}`;
        const p = bus.js
          .publish(
            'cdr.created',
            JSON.stringify({
              id,
              accountId,
              resource: 'call',
              timestamp: new Date().toISOString(),
              data: { callId: `${prefix}-call-${i % keys}`, durationSeconds: 42 },
            }),
          )
          .finally(() => inflight.delete(p));
        inflight.add(p);
        if (inflight.size >= 256) await Promise.race(inflight);
      }
      await Promise.all(inflight);
      await waitFor(() => seen.size >= n, { what: `${n} ${prefix} deliveries`, timeoutMs: 600_000, intervalMs: 20 });
      const seconds = (performance.now() - t0) / 1000;
      const used = cpuUsedBetween(cpu0, cpuByProcess({ dispatcher: pid }, stack.natsPort));
      const c1 = await counters();
      return {
        seconds,
        cpu: { dispatcher: used.dispatcher ?? 0, nats: used.nats ?? 0 },
        held: c1.held - c0.held,
        ops: c1.ops - c0.ops,
      };
    };
    const kinds = [
      { name: 'unordered', accountId: plain, keys: opts.keys },
      { name: `ordered, ${fmt(opts.keys)} keys`, accountId: ordered, keys: opts.keys },
      { name: 'ordered, one key per event', accountId: ordered, keys: opts.events },
    ];
    const warm = Math.min(2000, opts.events);
    for (const k of kinds) await run(k.accountId, Math.min(k.keys, warm), warm);
    const totals = kinds.map(() => ({ seconds: 0, dispatcher: 0, nats: 0, held: 0, ops: 0 }));
    for (let r = 0; r < opts.rounds; r++)
      for (const [i, k] of kinds.entries()) {
        const m = await run(k.accountId, k.keys, opts.events);
        const t = totals[i]!;
        t.seconds += m.seconds;
        t.dispatcher += m.cpu.dispatcher;
        t.nats += m.cpu.nats;
        t.held += m.held;
        t.ops += m.ops;
      }
    const n = opts.events * opts.rounds;
    const base = n / totals[0]!.seconds;
    return {
      events: opts.events,
      keys: opts.keys,
      rounds: opts.rounds,
      runs: kinds.map((k, i) => {
        const t = totals[i]!;
        const perSecond = n / t.seconds;
        return {
          name: k.name,
          perSecond: Math.round(perSecond),
          ratio: Math.round((perSecond / base) * 100) / 100,
          cpuUs: { dispatcher: Math.round((t.dispatcher * 1e6) / n), nats: Math.round((t.nats * 1e6) / n) },
          held: t.held,
          bucketOpsPerEvent: Math.round((t.ops / n) * 100) / 100,
        };
      }),
    };
  } finally {
    hooks.close();
    await bus.close();
    await rx.close();
    await stack.stop();
  }
}

export function printOrderingResults(r: OrderingBenchResult): string {
  const lines = [
    `Ordering by key (${fmt(r.events)} events a run, ${r.rounds} rounds, nothing failing; one dispatcher)`,
    ...r.runs.map(
      (x) =>
        `  ${x.name.padEnd(28)} ${fmt(x.perSecond).padStart(6)} events/s  ${x.ratio.toFixed(2)}x  ` +
        `CPU/event: dispatcher ${x.cpuUs.dispatcher} us, nats ${x.cpuUs.nats} us  ` +
        `waited ${fmt(x.held)}, bucket ops/event ${x.bucketOpsPerEvent}`,
    ),
  ];
  const worst = Math.min(...r.runs.slice(1).map((x) => x.ratio));
  lines.push(`  target: ordered >= 0.8x unordered: ${worst >= 0.8 ? 'MET' : 'NOT MET'} (worst ${worst.toFixed(2)}x)`);
  return lines.join('\n');
}
