// The first page (limit=50, as the console reads it) of GET /v1/alerts with BENCH_ALERT_ROWS (1,000,000) alerts of one account stored
// over 30 days, through the real gateway and webhooks service (separate processes) on Postgres:
// unfiltered, by code, by severity, by application and by a one-day since/until; target p95 <= 50 ms.
// Alerts are seeded with SQL (generate_series) into the service's daily partitions, spread evenly
// over the days, several codes and applications, as the fold (one row per code, application and
// minute) would have stored them.
import { loadavg } from 'node:os';
import { queryDatabase } from '../test/support';
import { get, printDeliveriesResults, sampled, type DeliveriesBenchResult, type Timing } from './deliveries';
import { makeDailyPartitions, startBenchStack } from './lib';

const DAYS = 30;
const CODES = ['app.not_json', 'app.timeout', 'app.http_5xx', 'app.http_4xx', 'app.unreachable', 'app.fallback_used'];

export async function runAlertsSeed(url: string, accountId: string, n: number): Promise<number> {
  const started = performance.now();
  await makeDailyPartitions(url, 'alerts', DAYS);
  const step = (DAYS * 86_400) / n;
  const chunk = 250_000;
  for (let from = 1; from <= n; from += chunk) {
    const to = Math.min(n, from + chunk - 1);
    // Row g: minute g*step seconds into the window, one of 6 codes and 50 applications; the
    // key (code, application, minute) is unique as the fold keeps it.
    await queryDatabase(
      url,
      `insert into webhooks.alerts (account_id, code, severity, application_id, session_id, attempt, message, minute, at, last_at, count)
       select $1, (array[${CODES.map((c) => `'${c}'`).join(',')}])[1 + g % ${CODES.length}],
         case when g % ${CODES.length} = ${CODES.length - 1} then 'warning' else 'error' end,
         'app_b' || (g / ${CODES.length}) % 50, 'ses_b' || g, 0, 'The application''s URL: not_json: text/html',
         date_trunc('minute', t), t, t, 1 + g % 3
       from generate_series($2::int, $3::int) g,
         lateral (select now() - make_interval(days => ${DAYS}) + make_interval(secs => g * $4::double precision) as t) x
       on conflict do nothing`,
      [accountId, from, to, step],
    );
    process.stderr.write(`  seeded ${to.toLocaleString('en-US')} alerts\n`);
  }
  await queryDatabase(url, 'analyze webhooks.alerts');
  return (performance.now() - started) / 1000;
}

export async function runAlertsBench(opts: { rows: number; samples: number }): Promise<DeliveriesBenchResult> {
  const stack = await startBenchStack({ webhooks: true, baseline: false });
  try {
    const [account] = await queryDatabase<{ id: string }>(
      stack.db.url,
      `select id::text from applications.accounts where username = 'bench'`,
    );
    const seedSeconds = await runAlertsSeed(stack.db.url, account!.id, opts.rows);
    const [{ n } = { n: '0' }] = await queryDatabase<{ n: string }>(
      stack.db.url,
      'select count(*)::text as n from webhooks.alerts',
    );
    const mid = new Date(Date.now() - (DAYS / 2) * 86_400_000);
    const day = `since=${mid.toISOString()}&until=${new Date(mid.getTime() + 86_400_000).toISOString()}`;
    const timings: Timing[] = [];
    for (const [name, query] of [
      ['first page', ''],
      ['code=app.timeout', '&code=app.timeout'],
      ['severity=warning', '&severity=warning'],
      ['applicationId', '&applicationId=app_b7'],
      ['since/until (one day)', `&${day}`],
    ] as const)
      timings.push(await sampled(name, opts.samples, () => get(stack, `/v1/alerts?limit=50${query}`), 50));
    const [size] = await queryDatabase<{ bytes: string }>(
      stack.db.url,
      `select sum(pg_total_relation_size(c.oid))::text as bytes from pg_class c join pg_namespace s on s.oid = c.relnamespace
        where s.nspname = 'webhooks' and c.relname like 'alerts_p%' and c.relkind = 'r'`,
    );
    return {
      kind: 'alerts',
      records: Number(n),
      seedSeconds,
      timings,
      bytesPerRecord: Number(size?.bytes ?? 0) / Math.max(1, Number(n)),
      bytesPerRollup: 0,
      loadAverage: loadavg(),
    };
  } finally {
    await stack.stop();
  }
}

export const printAlertsResults = printDeliveriesResults;
