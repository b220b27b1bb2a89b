// Issue 4 benchmark: events/s from publish (NATS JetStream) to 2xx at a local receiver, one
// subscription per event, every attempt recorded by the webhooks service; against a baseline
// in the same run: a plain undici loop that signs and POSTs the same bodies to the same receiver.
// Then the p99 publish-to-delivery latency with events published at half the measured rate.
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import pg from 'pg';
import { Agent } from 'undici';
import { connectNats } from '@switchboard/messaging';
import { createLogger } from '@switchboard/observability';
import { webhooksClient } from '@switchboard/proto';
import { waitFor } from '../test/support/infra';
import { startReceiver } from '../test/support/receiver';
import { secretKey, signatureHeaders } from '../services/dispatcher/src/delivery/signing';
import { cpuSecondsOf, createBenchAccount, fmt, percentiles, startDeliveryStack, table } from './lib';

export interface BurstResult {
  /** one host at the default per-host limit, or many hosts */
  name: string;
  hosts: number;
  /** attempts in flight of the plain loop (the dispatcher's limit for these hosts) */
  concurrency: number;
  dispatcher: {
    eventsPerSecond: number;
    recordedAfterMs: number;
    duplicates: number;
    deferrals: number;
    outOfOrder: number;
    /** connections the dispatcher opened to the receivers during the burst */
    connections: number;
    cpu: string;
    cpuPerEventUs: number;
    /**
     * CPU time per event of every process, from the first publish until every attempt was recorded
     * (the recording included), and what that allows on this machine's cores at most.
     */
    work: { perEventUs: Record<string, number>; totalUs: number; ceilingEventsPerSecond: number };
  };
  /** cpuPerEventUs: the benchmark process's (the loop and the receivers together). */
  baseline: { eventsPerSecond: number; cpuPerEventUs: number };
  ratio: number;
}

export interface DispatcherBenchResult {
  events: number;
  concurrency: number;
  hostConcurrency: number;
  bursts: BurstResult[];
  latency: { ratePerSecond: number; events: number; p50: number; p90: number; p99: number; max: number };
}

interface Receiver {
  url: string;
  /** receive time minus the publish time carried in the body, by event id */
  latencies: Map<string, number>;
  /** event ids in the order their first POST arrived */
  arrivals: string[];
  posts: number;
  /** TCP connections accepted since the last reset */
  connections: number;
  reset(): void;
  close(): Promise<void>;
}

async function startHookReceiver(): Promise<Receiver> {
  const latencies = new Map<string, number>();
  const arrivals: string[] = [];
  let posts = 0;
  let connectionsBefore = 0;
  const rx = await startReceiver({
    keep: false,
    observe: (r) => {
      posts++;
      // other bodies are not ours
      const body = r.body as { id?: string; data?: { sentAt?: number } } | undefined;
      if (body?.id && typeof body.data?.sentAt === 'number' && !latencies.has(body.id)) {
        latencies.set(body.id, r.at - body.data.sentAt);
        arrivals.push(body.id);
      }
    },
  });
  rx.on('/hook', () => 204);
  return {
    url: rx.url('/hook'),
    latencies,
    arrivals,
    get posts() {
      return posts;
    },
    get connections() {
      return rx.connections - connectionsBefore;
    },
    reset() {
      connectionsBefore = rx.connections;
      latencies.clear();
      arrivals.length = 0;
      posts = 0;
    },
    close: () => rx.close(),
  };
}

/** CPU seconds (user + system) used so far by each process; postgres summed over its processes. */
export function cpuByProcess(pids: Record<string, number | undefined>, natsPort: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, pid] of Object.entries(pids)) if (pid) out[name] = cpuSecondsOf(pid);
  out.bench = (process.cpuUsage().user + process.cpuUsage().system) / 1e6;
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    let cmd = '';
    try {
      cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (cmd.includes('nats-server') && cmd.includes(String(natsPort))) out.nats = cpuSecondsOf(Number(d));
    // Each Postgres process apart (`postgres:<pid>`): backends of other clients come and go.
    else if (cmd.startsWith('postgres')) out[`postgres:${d}`] = cpuSecondsOf(Number(d));
  }
  return out;
}

/**
 * CPU seconds used between two readings by process name (Postgres summed over its processes,
 * counting those that started in between from zero; those that ended in between are not counted).
 */
export function cpuUsedBetween(a: Record<string, number>, b: Record<string, number>): Record<string, number> {
  const used: Record<string, number> = {};
  for (const [k, v] of Object.entries(b)) {
    const name = k.split(':')[0]!;
    used[name] = (used[name] ?? 0) + v - (a[k] ?? 0);
  }
  return used;
}

function cpuDelta(a: Record<string, number>, b: Record<string, number>, seconds: number): string {
  return Object.entries(cpuUsedBetween(a, b))
    .map(([k, v]) => `${k} ${fmt((v / seconds) * 100)}%`)
    .join(', ');
}

/**
 * CPU time per event of each process between two readings, their sum, and the rate the machine's
 * cores could sustain at that cost if nothing else ran (an upper bound on the dispatcher's rate).
 */
function workPerEvent(
  a: Record<string, number>,
  b: Record<string, number>,
  events: number,
): BurstResult['dispatcher']['work'] {
  const perEventUs: Record<string, number> = {};
  for (const [k, v] of Object.entries(cpuUsedBetween(a, b))) perEventUs[k] = (v * 1e6) / events;
  const totalUs = Object.values(perEventUs).reduce((x, y) => x + y, 0);
  return { perEventUs, totalUs, ceilingEventsPerSecond: (availableParallelism() * 1e6) / totalUs };
}

const event = (accountId: string, id: string) => ({
  id,
  accountId,
  resource: 'call',
  timestamp: new Date().toISOString(),
  data: { sentAt: Date.now(), callId: id, from: '+14155550100', to: '+14155550199', durationSeconds: 42 },
});

/** A counter summed by the values of one of its labels (`total`: over all) in a Prometheus text exposition. */
async function metricBy(url: string, name: string, label: string): Promise<Record<string, number>> {
  const text = await (await fetch(url)).text();
  const out: Record<string, number> = { total: 0 };
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const v = Number(line.slice(line.lastIndexOf(' ') + 1));
    const key = new RegExp(`${label}="([^"]*)"`).exec(line)?.[1] ?? '';
    out[key] = (out[key] ?? 0) + v;
    out.total! += v;
  }
  return out;
}

/**
 * Events that reached their host far out of the order they were published in: further than
 * `window` places from their rank among that host's events (attempts in flight at once reorder a
 * little; a job deferred through JetStream comes back much later).
 */
function outOfOrder(arrivals: string[], window: number): number {
  const idx = arrivals.map((id) => Number(id.slice(id.lastIndexOf('-') + 1)));
  const rank = new Map([...idx].sort((a, b) => a - b).map((v, r) => [v, r]));
  return idx.filter((v, pos) => Math.abs(rank.get(v)! - pos) > window).length;
}

export async function runDispatcherBench(opts: {
  events: number;
  /** events of each burst's unmeasured warm-up run, for the dispatcher and the loop alike */
  warmUpEvents: number;
  latencySeconds: number;
  concurrency: number;
  hostConcurrency: number;
  hosts: number;
}): Promise<DispatcherBenchResult> {
  const stack = await startDeliveryStack();
  // One receiver per host (a host is host:port for the limiter and the breakers).
  const rxs = await Promise.all(Array.from({ length: opts.hosts }, () => startHookReceiver()));
  const rx = rxs[0]!;
  const logger = createLogger('bench', 'warn');
  const bus = await connectNats(stack.natsUrl, logger, 'bench');
  const hooks = webhooksClient(stack.webhooksGrpc);
  const sql = new pg.Client({ connectionString: stack.db.url });
  try {
    // One account per host, each with one subscription to its receiver.
    const tenants: Array<{ accountId: string; subscriptionId: string; secret: string; rx: Receiver }> = [];
    for (let i = 0; i < opts.hosts; i++) {
      const accountId = createBenchAccount(stack.env, `bench${i}`);
      const { subscription, secret } = await hooks.createSubscription({
        accountId,
        event: 'cdrCreated',
        resource: 'call',
        targetUrl: rxs[i]!.url,
      });
      tenants.push({ accountId, subscriptionId: subscription!.id, secret, rx: rxs[i]! });
    }
    const dispatcher = await stack.startDispatcher({
      DELIVERY_CONCURRENCY: String(opts.concurrency),
      DELIVERY_HOST_CONCURRENCY: String(opts.hostConcurrency),
      // Node/V8 flags of the dispatcher alone (e.g. heap settings), to try them out.
      ...(process.env.BENCH_DISPATCHER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_DISPATCHER_NODE_OPTIONS } : {}),
    });
    const metricsUrl = `http://127.0.0.1:${dispatcher.opsPort}/metrics`;
    await sql.connect();

    /** Publishes `count` events, event i to tenant i % hosts (all to tenant 0 when hosts is 1). */
    const publishWindow = async (count: number, prefix: string, hosts: number, paceMs?: number) => {
      const inflight = new Set<Promise<unknown>>();
      const started = Date.now();
      for (let i = 0; i < count; i++) {
        if (paceMs) {
          const due = started + i * paceMs;
          const wait = due - Date.now();
          if (wait > 1) await new Promise((r) => setTimeout(r, wait));
        }
        const p = bus.js
          .publish('cdr.created', JSON.stringify(event(tenants[i % hosts]!.accountId, `${prefix}-${i}`)))
          .finally(() => inflight.delete(p));
        inflight.add(p);
        if (inflight.size >= 256) await Promise.race(inflight);
      }
      await Promise.all(inflight);
    };
    const received = () => rxs.reduce((n, r) => n + r.latencies.size, 0);
    const resetAll = () => {
      for (const r of rxs) r.reset();
    };

    const [applications, webhooks] = stack.procs;
    const pids = {
      applications: applications?.pid(),
      webhooks: webhooks?.pid(),
      dispatcher: dispatcher.pid(),
    };
    // Deliveries each subscription will have recorded once all events published so far are.
    const recordedBefore = new Map<string, number>(tenants.map((t) => [t.subscriptionId, 0]));
    // Events i of n go to tenant i % hosts: tenant k gets ceil((n - k) / hosts) of them.
    const share = (n: number, hosts: number, k: number) => (k < hosts ? Math.ceil((n - k) / hosts) : 0);
    const published = (n: number, hosts: number) => {
      for (const [k, t] of tenants.entries())
        recordedBefore.set(t.subscriptionId, recordedBefore.get(t.subscriptionId)! + share(n, hosts, k));
    };

    /** The plain loop: `n` bodies signed and POSTed, `concurrency` in flight, to the first `hosts` receivers; its rate and CPU per event. */
    const runLoop = async (n: number, hosts: number, concurrency: number, prefix: string) => {
      const used = tenants.slice(0, hosts);
      const agent = new Agent({ keepAliveTimeout: 30_000 });
      const b0 = performance.now();
      const bcpu0 = process.cpuUsage();
      let next = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < n) {
            const i = next++;
            const t = used[i % hosts]!;
            const id = `${prefix}-${i}`;
            const body = JSON.stringify({
              id,
              name: null,
              event: 'cdrCreated',
              resource: 'call',
              timestamp: new Date().toISOString(),
              accountId: t.accountId,
              applicationId: null,
              data: event(t.accountId, id).data,
              payload: null,
            });
            const res = await agent.request({
              origin: new URL(t.rx.url).origin,
              path: '/hook',
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                ...signatureHeaders([secretKey(t.secret)], `msg_${prefix}${i}`, body),
              },
              body,
            });
            await res.body.dump();
            if (res.statusCode >= 300) throw new Error(`baseline got ${res.statusCode}`);
          }
        }),
      );
      const eventsPerSecond = (n * 1000) / (performance.now() - b0);
      const bcpu = process.cpuUsage(bcpu0);
      await agent.close();
      return { eventsPerSecond, cpuPerEventUs: (bcpu.user + bcpu.system) / n };
    };

    const shapes = [
      ['one host, default per-host limit', 1, opts.hostConcurrency],
      [`${opts.hosts} hosts`, opts.hosts, opts.concurrency],
    ] as const;
    // Warm-up: each burst once unmeasured, through the dispatcher and through the loop, so both run
    // optimised code on warm connections and caches when measured. A few hundred events are not
    // enough: V8 was still compiling the dispatcher's code during the first measured burst (a third
    // of its CPU time then went to the optimising compiler's thread).
    for (const [, hosts, concurrency] of shapes) {
      if (opts.warmUpEvents <= 0) break;
      resetAll();
      await publishWindow(opts.warmUpEvents, `warm${hosts}`, hosts);
      published(opts.warmUpEvents, hosts);
      await waitFor(() => received() >= opts.warmUpEvents, { timeoutMs: 120_000, what: 'warm-up deliveries' });
      await runLoop(opts.warmUpEvents, hosts, concurrency, `warmbase${hosts}`);
    }
    await new Promise((r) => setTimeout(r, 500));
    resetAll();

    const bursts: BurstResult[] = [];
    for (const [name, hosts, concurrency] of shapes) {
      // 1. Throughput: publish N events as fast as JetStream takes them; time until the last 2xx.
      resetAll();
      const used = tenants.slice(0, hosts);
      const deferred0 = await metricBy(metricsUrl, 'dispatcher_deliveries_deferred_total', 'reason');
      const cpu0 = cpuByProcess(pids, stack.natsPort);
      const t0 = performance.now();
      await publishWindow(opts.events, `tp${hosts}`, hosts);
      const publishedMs = performance.now() - t0;
      await waitFor(() => received() >= opts.events, { timeoutMs: 300_000, intervalMs: 5, what: 'all deliveries' });
      const elapsed = performance.now() - t0;
      const dispatcherRate = (opts.events * 1000) / elapsed;
      const duplicates = rxs.reduce((n, r) => n + r.posts, 0) - opts.events;
      const connections = rxs.reduce((n, r) => n + r.connections, 0);
      const cpu1 = cpuByProcess(pids, stack.natsPort);
      const cpu = cpuDelta(cpu0, cpu1, elapsed / 1000);
      // CPU time the dispatcher spent per event: steadier than the rate on a shared machine.
      const cpuPerEventUs = ((cpu1.dispatcher! - cpu0.dispatcher!) * 1e6) / opts.events;
      const deferred1 = await metricBy(metricsUrl, 'dispatcher_deliveries_deferred_total', 'reason');
      const deferrals = deferred1.total! - deferred0.total!;
      const deferredWhy = Object.entries(deferred1)
        .filter(([k, v]) => k !== 'total' && v > (deferred0[k] ?? 0))
        .map(([k, v]) => `${k} ${v - (deferred0[k] ?? 0)}`)
        .join(', ');
      const disorder = used.reduce((n, t) => n + outOfOrder(t.rx.arrivals, 2 * opts.hostConcurrency), 0);
      process.stderr.write(
        `  [${name}] CPU while delivering (100% = one core): ${cpu}; dispatcher ${fmt(cpuPerEventUs)} us per event\n`,
      );
      // ... and every attempt recorded
      published(opts.events, hosts);
      await waitFor(
        async () => {
          const r = await sql.query(
            'select subscription_id, count(distinct message_id)::int as n from webhooks.deliveries group by subscription_id',
          );
          const got = new Map(
            (r.rows as Array<{ subscription_id: string; n: number }>).map((x) => [x.subscription_id, x.n]),
          );
          return used.every((t) => (got.get(t.subscriptionId) ?? 0) >= recordedBefore.get(t.subscriptionId)!);
        },
        { timeoutMs: 120_000, intervalMs: 20, what: 'all attempts recorded' },
      );
      const recordedAfterMs = performance.now() - t0;
      const cpu2 = cpuByProcess(pids, stack.natsPort);
      const work = workPerEvent(cpu0, cpu2, opts.events);
      process.stderr.write(
        `  [${name}] dispatcher: ${fmt(dispatcherRate)} events/s (${opts.events} events, ${duplicates} duplicates, ${deferrals} deferrals${deferredWhy ? ` (${deferredWhy})` : ''}, ${disorder} far out of order, ${connections} connections opened; all published after ${fmt(publishedMs)} ms)\n`,
      );

      // 2. Baseline: the same bodies signed and POSTed by a plain undici loop, as many in flight as the dispatcher may have to these hosts.
      resetAll();
      const { eventsPerSecond: baselineRate, cpuPerEventUs: baselineCpuPerEventUs } = await runLoop(
        opts.events,
        hosts,
        concurrency,
        'base',
      );
      process.stderr.write(
        `  [${name}] baseline: ${fmt(baselineRate)} events/s (${concurrency} in flight; loop and receivers ${fmt(baselineCpuPerEventUs)} us CPU per event)\n`,
      );
      bursts.push({
        name,
        hosts,
        concurrency,
        dispatcher: {
          eventsPerSecond: dispatcherRate,
          recordedAfterMs,
          duplicates,
          deferrals,
          outOfOrder: disorder,
          connections,
          cpu,
          cpuPerEventUs,
          work,
        },
        baseline: { eventsPerSecond: baselineRate, cpuPerEventUs: baselineCpuPerEventUs },
        ratio: dispatcherRate / baselineRate,
      });
    }

    // 3. Latency at half the dispatcher's measured rate to one host.
    const rate = bursts[0]!.dispatcher.eventsPerSecond / 2;
    const count = Math.max(200, Math.round(rate * opts.latencySeconds));
    resetAll();
    await publishWindow(count, 'lat', 1, 1000 / rate);
    await waitFor(() => rx.latencies.size >= count, { timeoutMs: 120_000, intervalMs: 5, what: 'latency deliveries' });
    const latency = { ratePerSecond: rate, events: count, ...percentiles([...rx.latencies.values()]) };
    process.stderr.write(`  latency at ${fmt(rate)} events/s: p50 ${latency.p50} ms, p99 ${latency.p99} ms\n`);

    return {
      events: opts.events,
      concurrency: opts.concurrency,
      hostConcurrency: opts.hostConcurrency,
      bursts,
      latency,
    };
  } finally {
    await sql.end().catch(() => undefined);
    hooks.close();
    await bus.close();
    await stack.stop();
    await Promise.all(rxs.map((r) => r.close()));
  }
}

export function printDispatcherResults(r: DispatcherBenchResult): string {
  const rows = [['measurement', 'events/s', 'baseline events/s', 'ratio', 'notes']];
  for (const b of r.bursts)
    rows.push([
      `dispatcher, ${b.name} (publish -> 2xx, recorded)`,
      fmt(b.dispatcher.eventsPerSecond),
      fmt(b.baseline.eventsPerSecond),
      `${fmt(b.ratio * 100, 1)}%`,
      `${r.events} events, ${b.concurrency} in flight, dispatcher CPU ${fmt(b.dispatcher.cpuPerEventUs)} us per event, ${b.dispatcher.deferrals} deferrals, ${b.dispatcher.outOfOrder} far out of order, ${b.dispatcher.duplicates} duplicate POSTs, ${b.dispatcher.connections} connections opened, all recorded after ${fmt(b.dispatcher.recordedAfterMs)} ms`,
    ]);
  const met = r.bursts.every((b) => b.ratio >= 0.5) && r.latency.p99 < 100;
  return [
    `Dispatcher: JetStream -> signed POST -> recorded, vs a plain undici loop (DELIVERY_CONCURRENCY ${r.concurrency}, DELIVERY_HOST_CONCURRENCY ${r.hostConcurrency})`,
    table(rows),
    ...r.bursts.map((b) => `CPU while the dispatcher delivered, ${b.name} (100% = one core): ${b.dispatcher.cpu}`),
    ...r.bursts.map((b) => {
      const w = b.dispatcher.work;
      const parts = Object.entries(w.perEventUs)
        .map(([k, v]) => `${k} ${fmt(v)}`)
        .join(', ');
      return `CPU per event until all recorded, ${b.name}: ${fmt(w.totalUs)} us (${parts}; postgres counts every database of the server); on ${availableParallelism()} cores at most ${fmt(w.ceilingEventsPerSecond)} events/s = ${fmt((w.ceilingEventsPerSecond / b.baseline.eventsPerSecond) * 100, 1)}% of the loop's rate (loop and receivers ${fmt(b.baseline.cpuPerEventUs)} us per event)`;
    }),
    `publish-to-delivery latency at ${fmt(r.latency.ratePerSecond)} events/s to one host (half the measured rate, ${r.latency.events} events): p50 ${r.latency.p50} ms, p90 ${r.latency.p90} ms, p99 ${r.latency.p99} ms, max ${r.latency.max} ms`,
    `target: >= 50% of baseline in each burst and p99 < 100 ms at half rate -> ${met ? 'met' : 'NOT met'}`,
  ].join('\n');
}
