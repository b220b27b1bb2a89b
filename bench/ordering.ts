// Ordering by key: events/s from publish to 2xx at a local receiver with `ordering: {key: "callId"}`
// (1,000 keys, nothing failing), against the same run to a subscription without ordering, on one
// stack and one dispatcher process. Target: ordered at least 0.8x unordered.
import { connectNats, createLogger } from '@switchboard/platform';
import { webhooksClient } from '@switchboard/proto';
import { waitFor } from '../test/support/infra';
import { startReceiver } from '../test/support/receiver';
import { createBenchAccount, startDeliveryStack } from './lib';

export interface OrderingBenchResult {
  events: number;
  keys: number;
  unorderedPerSecond: number;
  orderedPerSecond: number;
  ratio: number;
}

export async function runOrderingBench(opts: { events: number; keys: number }): Promise<OrderingBenchResult> {
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
    await stack.startDispatcher();
    const run = async (accountId: string, prefix: string, n: number) => {
      seen.clear();
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
              data: { callId: `call-${i % opts.keys}`, durationSeconds: 42 },
            }),
          )
          .finally(() => inflight.delete(p));
        inflight.add(p);
        if (inflight.size >= 256) await Promise.race(inflight);
      }
      await Promise.all(inflight);
      await waitFor(() => seen.size >= n, { what: `${n} ${prefix} deliveries`, timeoutMs: 600_000, intervalMs: 20 });
      return n / ((performance.now() - t0) / 1000);
    };
    // Warm-up of both, then measured runs alternated.
    await run(plain, 'wp', Math.min(2000, opts.events));
    await run(ordered, 'wo', Math.min(2000, opts.events));
    const unorderedPerSecond = await run(plain, 'p', opts.events);
    const orderedPerSecond = await run(ordered, 'o', opts.events);
    return {
      events: opts.events,
      keys: opts.keys,
      unorderedPerSecond: Math.round(unorderedPerSecond),
      orderedPerSecond: Math.round(orderedPerSecond),
      ratio: Math.round((orderedPerSecond / unorderedPerSecond) * 100) / 100,
    };
  } finally {
    hooks.close();
    await bus.close();
    await rx.close();
    await stack.stop();
  }
}

export function printOrderingResults(r: OrderingBenchResult): string {
  return [
    `Ordering by key (${r.events} events over ${r.keys} keys, nothing failing)`,
    `  unordered: ${r.unorderedPerSecond} events/s`,
    `  ordered:   ${r.orderedPerSecond} events/s`,
    `  ratio:     ${r.ratio}x (target >= 0.8x) ${r.ratio >= 0.8 ? 'MET' : 'NOT MET'}`,
  ].join('\n');
}
