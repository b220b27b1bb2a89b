// Delivery search, statistics and retention on large histories, through the real gateway and
// webhooks service (separate processes) on Postgres. Records (and their rollups) are seeded with
// SQL (generate_series), spread evenly over their days, not sent through the API.
// - search: the first page (limit 50) of a subscription with BENCH_SEARCH_RECORDS (1,000,000)
//   records, unfiltered and with each filter; target p95 <= 50 ms.
// - stats: GET .../stats?window=7d&bucket=1h of that subscription; target p95 <= 30 ms.
// - retention: a retention pass (the service's own: whole days dropped) over
//   BENCH_RETENTION_RECORDS (10,000,000) records of 40 days with a 30-day retention, and the
//   search p95 before and while it runs.
// Also measured: bytes on disk per record (table and indexes) and per rollup row.
import { initOrm } from '@switchboard/db';
import { createLogger } from '@switchboard/observability';
import { queryDatabase } from '../test/support';
import { ENTITIES } from '../services/webhooks/src/db/entities';
import { MIGRATIONS } from '../services/webhooks/src/db/migrations';
import { dropExpiredDeliveries } from '../services/webhooks/src/deliveries/partitions';
import { pruneDeliveries } from '../services/webhooks/src/deliveries/repository';
import { LATENCY_BOUNDS_MS } from '../services/webhooks/src/deliveries/rollups';
import { fmt, makeDailyPartitions, percentile, startBenchStack, table, type BenchStack } from './lib';

export interface Timing {
  name: string;
  samples: number;
  p50: number;
  p95: number;
  max: number;
  targetMs?: number;
}

export interface DeliveriesBenchResult {
  kind: 'search' | 'stats' | 'retention' | 'alerts';
  records: number;
  seedSeconds: number;
  timings: Timing[];
  /** Bytes on disk per record (heap, TOAST and indexes of every partition) and per rollup row. */
  bytesPerRecord: number;
  bytesPerRollup: number;
  retention?: { seconds: number; dropped: number; recordsLeft: number };
  loadAverage: number[];
}

const DAY_S = 86_400;

export async function sampled(name: string, n: number, fn: () => Promise<void>, targetMs?: number): Promise<Timing> {
  for (let i = 0; i < Math.min(20, n); i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return {
    name,
    samples: n,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    max: times.at(-1)!,
    ...(targetMs ? { targetMs } : {}),
  };
}

export async function get(stack: BenchStack, path: string): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${stack.gatewayPort}${path}`, { headers: stack.headers });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
}

const LATENCY_SQL = [...LATENCY_BOUNDS_MS, Number.POSITIVE_INFINITY]
  .map(
    (upper, i) =>
      `(count(*) filter (where outcome <> 'cancelled' and duration_ms ${i === 0 ? '>= 0' : `> ${LATENCY_BOUNDS_MS[i - 1]}`}${Number.isFinite(upper) ? ` and duration_ms <= ${upper}` : ''}))::int`,
  )
  .join(', ');

/**
 * `n` records of one subscription, evenly from `days` days ago to now (seq in time order), in
 * chunks: ~1 in 33 failed (HTTP 500), ~1 in 14 retrying, 1 in 10 of another event; each message
 * has two attempts. Then the rollups of those records, as the service would have written them.
 */
async function seed(url: string, subscriptionId: string, accountId: string, n: number, days: number): Promise<number> {
  const started = performance.now();
  await makeDailyPartitions(url, 'deliveries', days);
  const chunk = 500_000;
  const step = (days * DAY_S) / n;
  for (let from = 1; from <= n; from += chunk) {
    const to = Math.min(n, from + chunk - 1);
    await queryDatabase(
      url,
      `insert into webhooks.deliveries (id, message_id, kind, subscription_id, account_id, event, target_url, attempt,
         status_code, duration_ms, error, outcome, trigger, created_at, response_content_type, response_excerpt)
       select 'dlv_b' || g, 'msg_b' || (g / 2), 'notification', $1, $2,
         case when g % 10 = 0 then 'cdrRated' else 'cdrCreated' end, 'https://hooks.example.com/switchboard/cdr', 1 + g % 2,
         case when g % 33 = 0 then 500 else 200 end, 20 + g % 230, case when g % 33 = 0 then 'HTTP 500' end,
         case when g % 33 = 0 then 'failed' when g % 14 = 0 then 'retrying' else 'succeeded' end, 'event',
         now() - make_interval(days => $5) + make_interval(secs => g * $6::double precision),
         'application/json', case when g % 33 = 0 then 'upstream error' else '{"received":true}' end
       from generate_series($3::int, $4::int) g`,
      [subscriptionId, accountId, from, to, days, step],
    );
    process.stderr.write(`  seeded ${to.toLocaleString('en-US')} records\n`);
  }
  await queryDatabase(
    url,
    `insert into webhooks.delivery_rollups (target, width, start, attempts, succeeded, retrying, failed, cancelled, latency)
     select subscription_id, w.width, date_bin(make_interval(secs => w.width), created_at, timestamptz 'epoch'), count(*), count(*) filter (where outcome = 'succeeded'),
       count(*) filter (where outcome = 'retrying'), count(*) filter (where outcome = 'failed'),
       count(*) filter (where outcome = 'cancelled'), array[${LATENCY_SQL}]
     from webhooks.deliveries cross join (values (60), (3600)) as w(width) where subscription_id = $1 group by 1, 2, 3`,
    [subscriptionId],
  );
  await queryDatabase(url, 'analyze webhooks.deliveries');
  await queryDatabase(url, 'analyze webhooks.delivery_rollups');
  return (performance.now() - started) / 1000;
}

async function sizes(url: string): Promise<{ bytesPerRecord: number; bytesPerRollup: number }> {
  const [r] = await queryDatabase<{ records: string; bytes: string; rollups: string; rollup_bytes: string }>(
    url,
    `select (select count(*) from webhooks.deliveries)::text as records,
       (select sum(pg_total_relation_size(i.inhrelid)) from pg_inherits i where i.inhparent = 'webhooks.deliveries'::regclass)::text as bytes,
       (select count(*) from webhooks.delivery_rollups)::text as rollups,
       pg_total_relation_size('webhooks.delivery_rollups')::text as rollup_bytes`,
  );
  return {
    bytesPerRecord: Number(r!.bytes) / Math.max(1, Number(r!.records)),
    bytesPerRollup: Number(r!.rollup_bytes) / Math.max(1, Number(r!.rollups)),
  };
}

async function subscribe(stack: BenchStack): Promise<{ id: string; accountId: string }> {
  const res = await fetch(`http://127.0.0.1:${stack.gatewayPort}/v1/webhooks`, {
    method: 'POST',
    headers: stack.headers,
    body: JSON.stringify({
      event: 'cdrCreated',
      resource: 'all',
      targetUrl: 'https://hooks.example.com/switchboard/cdr',
    }),
  });
  if (res.status !== 200) throw new Error(`creating the subscription: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { href: string; accountId: string };
  const id = body.href.split('/').pop()!;
  const [row] = await queryDatabase<{ account_id: string }>(
    stack.db.url,
    'select account_id::text from webhooks.subscriptions where id = $1',
    [id],
  );
  return { id, accountId: row!.account_id };
}

/** The first pages the search figures read: unfiltered and with each filter. */
function searchPaths(id: string, days: number): [string, string][] {
  const mid = new Date(Date.now() - (days / 2) * DAY_S * 1000);
  const base = `/v1/webhooks/${id}/deliveries?limit=50`;
  return [
    ['first page', base],
    ['outcome=failed', `${base}&outcome=failed`],
    ['outcome=retrying&event=cdrCreated', `${base}&outcome=retrying&event=cdrCreated`],
    [
      'since/until (one day)',
      `${base}&since=${mid.toISOString()}&until=${new Date(mid.getTime() + DAY_S * 1000).toISOString()}`,
    ],
    ['messageId', `${base}&messageId=msg_b${Math.floor(Math.random() * 1000) + 10}`],
  ];
}

export async function runDeliveriesBench(
  kind: 'search' | 'stats' | 'retention',
  opts: { records: number; samples: number },
): Promise<DeliveriesBenchResult> {
  const stack = await startBenchStack({ webhooks: true, baseline: false });
  try {
    const { id, accountId } = await subscribe(stack);
    const days = kind === 'retention' ? 40 : 30;
    const seedSeconds = await seed(stack.db.url, id, accountId, opts.records, days);
    const timings: Timing[] = [];
    let retention: DeliveriesBenchResult['retention'];
    if (kind === 'search')
      for (const [name, path] of searchPaths(id, days))
        timings.push(await sampled(name, opts.samples, () => get(stack, path), 50));
    if (kind === 'stats') {
      timings.push(
        await sampled('7d by 1h', opts.samples, () => get(stack, `/v1/webhooks/${id}/stats?window=7d&bucket=1h`), 30),
      );
      timings.push(
        await sampled('24h by 5m', opts.samples, () => get(stack, `/v1/webhooks/${id}/stats?window=24h&bucket=5m`)),
      );
    }
    const measured = await sizes(stack.db.url);
    if (kind === 'retention') {
      const failed = `/v1/webhooks/${id}/deliveries?limit=50&outcome=failed`;
      timings.push(
        await sampled('search before the pass (outcome=failed)', opts.samples, () => get(stack, failed), 50),
      );
      const orm = await initOrm({
        entities: ENTITIES,
        migrations: MIGRATIONS,
        databaseUrl: stack.db.url,
        schema: 'webhooks',
        poolMax: 2,
        logger: createLogger('bench', 'warn'),
      });
      try {
        // Searches from the start of the pass; those that started before it ended are "during".
        const searches: { at: number; ms: number }[] = [];
        let running = true;
        const searching = (async () => {
          while (running) {
            const at = performance.now();
            await get(stack, failed);
            searches.push({ at, ms: performance.now() - at });
          }
        })();
        const t = performance.now();
        const dropped = await dropExpiredDeliveries(orm, 'webhooks', 30);
        const droppedAt = performance.now();
        await pruneDeliveries(orm.em.fork(), 'webhooks', 30);
        const ended = performance.now();
        const seconds = (ended - t) / 1000;
        while (searches.length < opts.samples) await new Promise((r) => setTimeout(r, 10));
        running = false;
        await searching;
        const figure = (name: string, samples: number[]): Timing => {
          const sorted = [...samples].sort((a, b) => a - b);
          return {
            name,
            samples: sorted.length,
            p50: percentile(sorted, 50),
            p95: percentile(sorted, 95),
            max: sorted.at(-1) ?? 0,
            targetMs: 50,
          };
        };
        timings.push(
          figure(
            `search while the pass runs (outcome=failed; drop ${fmt((droppedAt - t) / 1000, 2)} s, pass ${fmt(seconds, 2)} s)`,
            searches.filter((x) => x.at < ended).map((x) => x.ms),
          ),
          figure(
            'search after the pass (outcome=failed)',
            searches.filter((x) => x.at >= ended).map((x) => x.ms),
          ),
        );
        const [left] = await queryDatabase<{ n: string }>(
          stack.db.url,
          'select count(*)::text as n from webhooks.deliveries',
        );
        retention = { seconds, dropped: dropped.length, recordsLeft: Number(left!.n) };
      } finally {
        await orm.close(true);
      }
    }
    return {
      kind,
      records: opts.records,
      seedSeconds,
      timings,
      ...measured,
      ...(retention ? { retention } : {}),
      loadAverage: (await import('node:os')).loadavg(),
    };
  } finally {
    await stack.stop();
  }
}

export function printDeliveriesResults(r: DeliveriesBenchResult): string {
  const rows = [
    ['figure', 'samples', 'p50 ms', 'p95 ms', 'max ms', 'target'],
    ...r.timings.map((t) => [
      t.name,
      String(t.samples),
      fmt(t.p50, 1),
      fmt(t.p95, 1),
      fmt(t.max, 1),
      t.targetMs ? `p95 <= ${t.targetMs} ms: ${t.p95 <= t.targetMs ? 'met' : 'NOT met'}` : '',
    ]),
  ];
  const lines = [
    `${r.kind === 'alerts' ? 'Alerts' : `Deliveries ${r.kind}`}: ${r.records.toLocaleString('en-US')} rows seeded in ${fmt(r.seedSeconds, 0)} s (load average ${r.loadAverage.map((l) => fmt(l, 1)).join(' ')})`,
    table(rows),
    `on disk: ${fmt(r.bytesPerRecord, 0)} bytes per row (table, TOAST and indexes)${r.bytesPerRollup ? `, ${fmt(r.bytesPerRollup, 0)} bytes per rollup row` : ''}`,
  ];
  if (r.retention)
    lines.push(
      `retention pass: ${r.retention.dropped} daily partitions dropped in ${fmt(r.retention.seconds, 2)} s; ${r.retention.recordsLeft.toLocaleString('en-US')} records left`,
    );
  return lines.join('\n');
}
