// Issue 4 benchmark: events/s from publish (NATS JetStream) to 2xx at a local receiver, one
// subscription per event, every attempt recorded by the webhooks service; against a baseline
// in the same run: a plain undici loop that signs and POSTs the same bodies to the same receiver.
// Then the p99 publish-to-delivery latency with events published at half the measured rate.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { Agent } from 'undici';
import { connectNats, createLogger } from '@switchboard/platform';
import { webhooksClient } from '@switchboard/proto';
import { createTestDatabase, freePort, newSecretsKey, startNatsServer, waitFor } from '../test/support/infra';
import { secretKey, signatureHeaders } from '../services/dispatcher/src/delivery/signing';
import { cpuSecondsOf, fmt, root, startProcess, table, waitHttp } from './lib';

export interface DispatcherBenchResult {
  events: number;
  concurrency: number;
  dispatcher: { eventsPerSecond: number; recordedAfterMs: number; duplicates: number; cpu: string };
  baseline: { eventsPerSecond: number };
  ratio: number;
  latency: { ratePerSecond: number; events: number; p50: number; p90: number; p99: number; max: number };
}

interface Receiver {
  url: string;
  /** receive time minus the publish time carried in the body, by event id */
  latencies: Map<string, number>;
  posts: number;
  reset(): void;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const latencies = new Map<string, number>();
  let posts = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const now = Date.now();
      posts++;
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; data: { sentAt: number } };
        if (!latencies.has(body.id)) latencies.set(body.id, now - body.data.sentAt);
      } catch {
        // not ours
      }
      res.writeHead(204);
      res.end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    latencies,
    get posts() {
      return posts;
    },
    reset() {
      latencies.clear();
      posts = 0;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** CPU seconds (user + system) used so far by each process; postgres summed over its processes. */
function cpuByProcess(pids: Record<string, number | undefined>, natsPort: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, pid] of Object.entries(pids)) if (pid) out[name] = cpuSecondsOf(pid);
  out.bench = (process.cpuUsage().user + process.cpuUsage().system) / 1e6;
  let pgTotal = 0;
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    let cmd = '';
    try {
      cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (cmd.includes('nats-server') && cmd.includes(String(natsPort))) out.nats = cpuSecondsOf(Number(d));
    else if (cmd.startsWith('postgres')) pgTotal += cpuSecondsOf(Number(d));
  }
  out.postgres = pgTotal;
  return out;
}

function cpuDelta(a: Record<string, number>, b: Record<string, number>, seconds: number): string {
  return Object.keys(b)
    .map((k) => `${k} ${fmt(((b[k]! - (a[k] ?? 0)) / seconds) * 100)}%`)
    .join(', ');
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const event = (accountId: string, id: string) => ({
  id,
  accountId,
  resource: 'call',
  timestamp: new Date().toISOString(),
  data: { sentAt: Date.now(), callId: id, from: '+14155550100', to: '+14155550199', durationSeconds: 42 },
});

export async function runDispatcherBench(opts: { events: number; latencySeconds: number; concurrency: number }): Promise<DispatcherBenchResult> {
  const db = await createTestDatabase();
  const nats = await startNatsServer();
  const [appsGrpc, appsOps, whGrpc, whOps, dOps] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
  const common = { DATABASE_URL: db.url, NATS_URL: nats.url, LOG_LEVEL: 'warn', HOST: '127.0.0.1', DELIVERY_ALLOWED_CIDRS: '127.0.0.0/8', SECRETS_KEY: newSecretsKey() };
  const procs = [
    startProcess('applications', 'services/applications', 'src/main.ts', { ...common, GRPC_PORT: String(appsGrpc), OPS_PORT: String(appsOps) }),
  ];
  const rx = await startReceiver();
  const logger = createLogger('bench', 'warn');
  const bus = await connectNats(nats.url, logger, 'bench');
  const hooks = webhooksClient(`127.0.0.1:${whGrpc}`);
  const sql = new pg.Client({ connectionString: db.url });
  try {
    await waitHttp(`http://127.0.0.1:${appsOps}/readyz`, 'applications', (s) => s === 200);
    procs.push(
      startProcess('webhooks', 'services/webhooks', 'src/main.ts', { ...common, GRPC_PORT: String(whGrpc), OPS_PORT: String(whOps), APPLICATIONS_GRPC_URL: `127.0.0.1:${appsGrpc}` }),
    );
    await waitHttp(`http://127.0.0.1:${whOps}/readyz`, 'webhooks', (s) => s === 200);
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'services/applications/src/account-cli.ts', 'create', '--username', 'bench', '--password', 'bench-password'], {
      cwd: root,
      env: { ...process.env, ...common },
    });
    const accountId = String((JSON.parse(out.toString()) as { id: number }).id);
    const { subscription, secret } = await hooks.createSubscription({ accountId, event: 'cdrCreated', resource: 'call', targetUrl: rx.url });
    const subscriptionId = subscription!.id;
    procs.push(
      startProcess('dispatcher', 'services/dispatcher', 'src/main.ts', {
        ...common,
        OPS_PORT: String(dOps),
        APPLICATIONS_GRPC_URL: `127.0.0.1:${appsGrpc}`,
        WEBHOOKS_GRPC_URL: `127.0.0.1:${whGrpc}`,
        DELIVERY_CONCURRENCY: String(opts.concurrency),
        DELIVERY_HOST_CONCURRENCY: String(opts.concurrency),
      }),
    );
    await waitHttp(`http://127.0.0.1:${dOps}/readyz`, 'dispatcher', (s) => s === 200);
    await sql.connect();

    const publishWindow = async (count: number, prefix: string, paceMs?: number) => {
      const inflight = new Set<Promise<unknown>>();
      const started = Date.now();
      for (let i = 0; i < count; i++) {
        if (paceMs) {
          const due = started + i * paceMs;
          const wait = due - Date.now();
          if (wait > 1) await new Promise((r) => setTimeout(r, wait));
        }
        const p = bus.js.publish('cdr.created', JSON.stringify(event(accountId, `${prefix}-${i}`))).finally(() => inflight.delete(p));
        inflight.add(p);
        if (inflight.size >= 256) await Promise.race(inflight);
      }
      await Promise.all(inflight);
    };

    // Warm-up: JIT, connection pools, caches.
    await publishWindow(500, 'warm');
    await waitFor(() => rx.latencies.size >= 500, { timeoutMs: 60_000, what: 'warm-up deliveries' });
    await new Promise((r) => setTimeout(r, 500));
    rx.reset();

    // 1. Throughput: publish N events as fast as JetStream takes them; time until the last 2xx.
    const pids = { applications: procs[0]?.child.pid, webhooks: procs[1]?.child.pid, dispatcher: procs[2]?.child.pid };
    const cpu0 = cpuByProcess(pids, nats.port);
    const t0 = performance.now();
    await publishWindow(opts.events, 'tp');
    const publishedMs = performance.now() - t0;
    await waitFor(() => rx.latencies.size >= opts.events, { timeoutMs: 300_000, intervalMs: 5, what: 'all deliveries' });
    const elapsed = performance.now() - t0;
    const dispatcherRate = (opts.events * 1000) / elapsed;
    const duplicates = rx.posts - opts.events;
    const cpu = cpuDelta(cpu0, cpuByProcess(pids, nats.port), elapsed / 1000);
    process.stderr.write(`  CPU while delivering (100% = one core): ${cpu}\n`);
    // ... and every attempt recorded
    await waitFor(
      async () => {
        const r = await sql.query('select count(distinct message_id)::int as n from webhooks.deliveries where subscription_id = $1', [subscriptionId]);
        return (r.rows[0] as { n: number }).n >= opts.events + 500;
      },
      { timeoutMs: 120_000, intervalMs: 20, what: 'all attempts recorded' },
    );
    const recordedAfterMs = performance.now() - t0;
    process.stderr.write(`  dispatcher: ${fmt(dispatcherRate)} events/s (${opts.events} events, ${duplicates} duplicates; all published after ${fmt(publishedMs)} ms)\n`);

    // 2. Baseline: the same bodies signed and POSTed by a plain undici loop, same concurrency.
    const agent = new Agent({ keepAliveTimeout: 30_000 });
    const keys = [secretKey(secret)];
    rx.reset();
    const b0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: opts.concurrency }, async () => {
        while (next < opts.events) {
          const i = next++;
          const body = JSON.stringify({ id: `base-${i}`, name: null, event: 'cdrCreated', resource: 'call', timestamp: new Date().toISOString(), accountId, applicationId: null, data: event(accountId, `base-${i}`).data, payload: null });
          const res = await agent.request({ origin: new URL(rx.url).origin, path: '/hook', method: 'POST', headers: { 'content-type': 'application/json', ...signatureHeaders(keys, `msg_base${i}`, body) }, body });
          await res.body.dump();
          if (res.statusCode >= 300) throw new Error(`baseline got ${res.statusCode}`);
        }
      }),
    );
    const baselineRate = (opts.events * 1000) / (performance.now() - b0);
    await agent.close();
    process.stderr.write(`  baseline: ${fmt(baselineRate)} events/s\n`);

    // 3. Latency at half the dispatcher's measured rate.
    const rate = dispatcherRate / 2;
    const count = Math.max(200, Math.round(rate * opts.latencySeconds));
    rx.reset();
    await publishWindow(count, 'lat', 1000 / rate);
    await waitFor(() => rx.latencies.size >= count, { timeoutMs: 120_000, intervalMs: 5, what: 'latency deliveries' });
    const lat = [...rx.latencies.values()].sort((a, b) => a - b);
    const latency = { ratePerSecond: rate, events: count, p50: percentile(lat, 50), p90: percentile(lat, 90), p99: percentile(lat, 99), max: lat[lat.length - 1]! };
    process.stderr.write(`  latency at ${fmt(rate)} events/s: p50 ${latency.p50} ms, p99 ${latency.p99} ms\n`);

    return {
      events: opts.events,
      concurrency: opts.concurrency,
      dispatcher: { eventsPerSecond: dispatcherRate, recordedAfterMs, duplicates, cpu },
      baseline: { eventsPerSecond: baselineRate },
      ratio: dispatcherRate / baselineRate,
      latency,
    };
  } finally {
    await sql.end().catch(() => undefined);
    hooks.close();
    await bus.close();
    await Promise.all(procs.map((p) => p.stop()));
    await rx.close();
    await nats.destroy();
    await db.drop();
  }
}

export function printDispatcherResults(r: DispatcherBenchResult): string {
  const rows = [
    ['measurement', 'events/s', 'notes'],
    ['dispatcher (publish -> 2xx, recorded)', fmt(r.dispatcher.eventsPerSecond), `${r.events} events, concurrency ${r.concurrency}, ${r.dispatcher.duplicates} duplicate POSTs, all recorded after ${fmt(r.dispatcher.recordedAfterMs)} ms`],
    ['baseline (undici loop: sign + POST)', fmt(r.baseline.eventsPerSecond), `same bodies, same receiver, concurrency ${r.concurrency}`],
  ];
  const met = r.ratio >= 0.25 && r.latency.p99 < 100;
  return [
    'Dispatcher: JetStream -> signed POST -> recorded, vs a plain undici loop',
    table(rows),
    `ratio dispatcher/baseline: ${fmt(r.ratio * 100, 1)}%`,
    `CPU while the dispatcher delivered (100% = one core): ${r.dispatcher.cpu}`,
    `publish-to-delivery latency at ${fmt(r.latency.ratePerSecond)} events/s (half the measured rate, ${r.latency.events} events): p50 ${r.latency.p50} ms, p90 ${r.latency.p90} ms, p99 ${r.latency.p99} ms, max ${r.latency.max} ms`,
    `target: >= 25% of baseline and p99 < 100 ms at half rate -> ${met ? 'met' : 'NOT met'}`,
  ].join('\n');
}
