// Soak of the stores: days of traffic in minutes (docs/decisions/0015-stream-retention.md). Every
// store is set small (streams of 1 MiB, a 64 KiB session registry, pruning every 2 s, a delivery
// backlog of 50 per account living 20 s), then several tenants send `multiple` times each stream's
// capacity of mixed traffic: notifications of the three kinds, sessions routed by application,
// Session API launches and signals, API reads and writes, a resend and a recovery; one tenant's
// receiver is dead throughout, and its subscriptions keep each call's events in order (a key per
// call, so every dead call leaves a failed line in the ordering bucket). It checks that no healthy
// event is refused or lost, that the dead tenant's deliveries end as backlog_full or expired, that
// the ordering bucket is driven past its bound and stays within it (new keys go unordered, failed
// keys are forgotten), that call setup at the end is within 2x of the start, that stream and
// bucket sizes stay under their bounds and level off, that a day of retention lasting 20 s
// (RETENTION_DAY_MS) keeps every table that grows with traffic to its window (no record older than
// it, sizes level off), and reports each process's resident-memory slope.
import { randomBytes } from 'node:crypto';
import { ORDERING_STREAM } from '@switchboard/contracts';
import { KV_BUCKETS, STREAMS } from '@switchboard/events';
import { kvStream } from '@switchboard/messaging';
import { PROOF_DISPATCHER_ENV, rssMb, startCluster, type Cluster } from '../cluster';
import type { Account } from '../lib/load';
import { startReceiver, type Receiver } from '../lib/receiver';
import { metricSum, percentile, sleep, slope } from '../lib/stats';
import { api, finish, newAccount, type ScenarioResult } from './common';

const MiB = 1024 * 1024;
/** How long a day of retention lasts in the soak (RETENTION_DAY_MS). */
const RETENTION_DAY_MS = 20_000;
/** The longest a record may outlive its window: one more day (a partition is dropped whole) and one pass. */
const RETENTION_SLACK_MS = RETENTION_DAY_MS + 2000 + 5000;
export const STORE_SOAK_ENV = {
  // Test settings: every store small, so that minutes hold many times its capacity.
  NATS_STREAM_MAX_BYTES: String(MiB),
  NATS_KV_MAX_BYTES: String(64 * 1024),
  PRUNE_INTERVAL_MS: '2000',
  // A day of retention lasts 20 s, and every table keeps one such day: records, bodies, sessions,
  // signals, alerts, rollups, audit entries and idempotency keys (24 h: one day) are kept 20-40 s,
  // in partitions of 20 s where the table is partitioned.
  RETENTION_DAY_MS: String(RETENTION_DAY_MS),
  DELIVERY_RETENTION_DAYS: '1',
  SESSION_RETENTION_DAYS: '1',
  ALERT_RETENTION_DAYS: '1',
  AUDIT_RETENTION_DAYS: '1',
  // A recovery hands the dispatchers 50 of an account's resends at a time.
  RESEND_IN_FLIGHT_PER_ACCOUNT: '50',
};
// Test settings of the delivery backlog: 50 waiting per account, each waiting at most 20 s (a resend
// or a recovery's jobs too: DELIVERY_GIVE_UP_AFTER), and a failed ordering key remembered 30 s
// (about as many failed keys as the 64 KiB ordering bucket holds at the soak's pace).
const DEAD_ENV = {
  DELIVERY_BACKLOG_PER_ACCOUNT: '50',
  DELIVERY_MAX_AGE: '20s',
  DELIVERY_GIVE_UP_AFTER: '20s',
  DELIVERY_BACKLOG_RECHECK: '2s',
  DELIVERY_ORDERING_FAILURE_MEMORY: '30s',
};
const STREAM_NAMES = [STREAMS.events.name, STREAMS.internal.name, STREAMS.core.name, 'SWITCHBOARD_DELIVERIES'];
const TABLES = [
  'webhooks.deliveries',
  'webhooks.delivery_bodies',
  'webhooks.delivery_rollups',
  'webhooks.sessions',
  'webhooks.session_signals',
  'webhooks.session_rollups',
  'webhooks.idempotency_keys',
  'webhooks.outbox',
  'webhooks.audit_events',
  'applications.outbox',
  'applications.idempotency_keys',
  'applications.audit_events',
  'applications.session_launch_budgets',
];

interface Tenant {
  account: Account;
  applicationId: string;
  token: string;
  path: string;
  sessionsPath: string;
}

/** An event of about 1.5 KB (the size of a real CDR) for `subject`. */
function event(subject: string, id: string, accountId: string) {
  return {
    id,
    accountId,
    resource: subject === 'sms.dlr' ? 'sms' : 'call',
    timestamp: new Date().toISOString(),
    data: { callId: id, from: '+14155550100', to: '+14155550199', durationSeconds: 42, note: 'x'.repeat(1200) },
  };
}

async function tenant(cluster: Cluster, rx: Receiver, name: string, dead: boolean): Promise<Tenant> {
  const account = await newAccount(cluster, name);
  const path = `/${name}/events`;
  const sessionsPath = `/${name}/sessions`;
  if (dead) rx.setMode(path, 503);
  for (const ev of ['cdrCreated', 'cdrRated', 'smsdlr']) {
    const r = await api(cluster, account, 'POST', '/v1/webhooks', {
      event: ev,
      resource: 'all',
      targetUrl: rx.url(path),
      // The dead tenant's events in order per call: each call's key line stays in the ordering
      // bucket while it fails, then for the failure memory.
      ...(dead ? { ordering: { key: 'callId' } } : {}),
    });
    if (r.status !== 200) throw new Error(`subscription: ${r.status} ${JSON.stringify(r.json)}`);
  }
  // Instructions of about 2 KB, like an application's answer to a call.
  rx.setMode(sessionsPath, {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ tropo: [{ say: { value: 'Welcome. '.repeat(220) } }] }),
  });
  const app = await api(cluster, account, 'POST', '/v1/applications', { name, voiceUrl: rx.url(sessionsPath) });
  const applicationId = String(app.json.href).split('/').pop()!;
  const tok = await api(cluster, account, 'POST', `/v1/applications/${applicationId}/addresses`, {
    type: 'token',
    channel: 'voice',
  });
  const token = String(tok.json.href).split('/').pop()!;
  return { account, applicationId, token, path, sessionsPath };
}

export interface StoreSoakOptions {
  /** How many times each stream's capacity of events to send (20 in the proof, 5 in npm test). */
  multiple: number;
  /** Events published per second. */
  rate?: number;
}

export async function storeSoak(opts: StoreSoakOptions): Promise<ScenarioResult> {
  const started = Date.now();
  const cluster = await startCluster({
    gateways: 1,
    applications: 1,
    webhooks: 1,
    dispatchers: 2,
    privatePostgres: false,
    allowedCidrs: '127.0.0.0/8',
    env: STORE_SOAK_ENV,
    dispatcherEnv: { ...PROOF_DISPATCHER_ENV, ...DEAD_ENV, DELIVERY_RETRY_SCHEDULE: '1s,2s,4s,8s,16s' },
  });
  const rx = await startReceiver();
  try {
    return await run(cluster, rx, opts, started);
  } finally {
    await rx.close();
    await cluster.stop();
  }
}

async function run(cluster: Cluster, rx: Receiver, opts: StoreSoakOptions, started: number): Promise<ScenarioResult> {
  const healthy = await Promise.all(['soak_a', 'soak_b', 'soak_c'].map((n) => tenant(cluster, rx, n, false)));
  const dead = await tenant(cluster, rx, 'soak_dead', true);
  const perEvent = Buffer.byteLength(JSON.stringify(event('cdr.created', 'e-000000', healthy[0]!.account.id)));
  // A quarter more than the multiple, so that every store takes in at least that many times its bound.
  const total = Math.ceil((opts.multiple * 1.25 * MiB) / perEvent);
  // A pace two shared cores keep up with (the point is to hold each store many times over, not load).
  const rate = opts.rate ?? 120;

  const refused: string[] = [];
  const published = new Map<string, string>(); // event id -> path
  const sessionSent = new Map<string, { at: number; path: string }>();
  const samples: Array<{
    at: number;
    streams: Record<string, number>;
    kv: number;
    ordering: number;
    tables: Record<string, number>;
    rows: Record<string, number>;
  }> = [];
  // Bytes each store has taken in so far (messages stored times their mean size), per store.
  const written: Record<string, number> = {};
  // Bytes of the healthy tenants' events published to the inbound stream (exact).
  let inboundBytes = 0;
  const rss = new Map<string, Array<[number, number]>>();
  let apiFailures = 0;
  /** The first few failed API requests: what was asked and what came back. */
  const apiFailuresSeen: string[] = [];
  const apiFailed = (what: string, status: number | undefined) => {
    apiFailures++;
    if (apiFailuresSeen.length < 5) apiFailuresSeen.push(`${what}: ${status ?? 'no answer'}`);
  };
  let apiCalls = 0;

  const sample = async () => {
    const streams: Record<string, number> = {};
    const kvName = kvStream(KV_BUCKETS.sessions).stream;
    for (const name of [...STREAM_NAMES, kvName, ORDERING_STREAM]) {
      const info = await cluster.bus.jsm.streams.info(name).catch(() => undefined);
      streams[name] = info?.state.bytes ?? -1;
      if (info && info.state.messages > 0)
        written[name] = Math.max(written[name] ?? 0, (info.state.last_seq * info.state.bytes) / info.state.messages);
    }
    const kv = streams[kvName]!;
    const ordering = streams[ORDERING_STREAM]!;
    delete streams[kvName];
    delete streams[ORDERING_STREAM];
    samples.push({
      at: Date.now(),
      streams,
      kv,
      ordering,
      tables: await tableSizes(cluster),
      rows: await tableRows(cluster),
    });
    const minute = (Date.now() - started) / 60_000;
    for (const r of cluster.replicas) {
      const pid = r.pid();
      const mb = pid ? rssMb(pid) : undefined;
      if (mb === undefined) continue;
      let s = rss.get(r.name);
      if (!s) rss.set(r.name, (s = []));
      s.push([minute, mb]);
    }
  };
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      await sample().catch(() => undefined);
      await sleep(2000);
    }
  })();

  const publish = async (subject: string, body: unknown, id: string, path: string) => {
    try {
      const json = JSON.stringify(body);
      await cluster.bus.js.publish(subject, json);
      inboundBytes += Buffer.byteLength(json);
      published.set(id, path);
    } catch (err) {
      refused.push(`${subject} ${id}: ${(err as Error).message}`);
    }
  };
  const call = async (a: Account, method: string, path: string, body?: unknown) => {
    apiCalls++;
    const r = await api(cluster, a, method, path, body).catch(() => ({ status: 0, json: null }));
    if (r.status === 0 || r.status >= 500) apiFailed(`${method} ${path}`, r.status);
    return r;
  };

  const subjects = ['cdr.created', 'cdr.rated', 'sms.dlr'];
  const tick = 50;
  const perTick = Math.max(1, Math.round((rate * tick) / 1000));
  let i = 0;
  while (i < total) {
    const t0 = Date.now();
    const batch: Promise<unknown>[] = [];
    for (let k = 0; k < perTick && i < total; k++, i++) {
      const n = String(i).padStart(6, '0');
      const t = i % 10 === 9 ? dead : healthy[i % healthy.length]!;
      const subject = subjects[i % subjects.length]!;
      const id = `ev-${n}`;
      if (t !== dead) batch.push(publish(subject, event(subject, id, t.account.id), id, t.path));
      else
        batch.push(
          cluster.bus.js.publish(subject, JSON.stringify(event(subject, id, t.account.id))).catch(() => undefined),
        );
      if (i % 2 === 0) {
        const h = healthy[(i / 2) % healthy.length]!;
        const sessionId = `call-${n}-${randomBytes(3).toString('hex')}`;
        sessionSent.set(sessionId, { at: Date.now(), path: h.sessionsPath });
        batch.push(
          publish(
            'sessions.new',
            {
              applicationId: h.applicationId,
              session: {
                id: sessionId,
                from: { id: '+14155550100', channel: 'VOICE' },
                to: { id: '+14155550199', channel: 'VOICE' },
              },
            },
            sessionId,
            h.sessionsPath,
          ),
        );
      }
      if (i % 100 === 0) {
        const h = healthy[(i / 100) % healthy.length]!;
        batch.push(
          (async () => {
            const launch = await fetch(`${cluster.apiUrl}/v1/sessions`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ token: h.token, customer: n }),
            }).catch(() => undefined);
            apiCalls++;
            if (!launch || launch.status >= 500) apiFailed('POST /v1/sessions', launch?.status);
            const launched = launch ? ((await launch.json().catch(() => ({}))) as { id?: string }) : {};
            if (launched.id) {
              apiCalls++;
              const sig = await fetch(
                `${cluster.apiUrl}/1.0/sessions/${launched.id}/signals?action=signal&value=exit`,
              ).catch(() => undefined);
              if (!sig || sig.status >= 500) apiFailed('GET /1.0/sessions/{id}/signals', sig?.status);
            }
          })(),
        );
        batch.push(call(h.account, 'GET', `/v1/applications/${h.applicationId}`));
        batch.push(call(h.account, 'PUT', `/v1/applications/${h.applicationId}`, { name: `soak ${n}` }));
        batch.push(call(h.account, 'GET', '/v1/webhooks'));
      }
    }
    await Promise.all(batch);
    const wait = tick - (Date.now() - t0);
    if (wait > 0) await sleep(wait);
  }
  const publishedAt = Date.now();
  written[STREAMS.events.name] = inboundBytes;

  // Every healthy event and session delivered.
  const undelivered = () => [...published].filter(([id, path]) => !rx.stats(path).okEvents.has(id)).length;
  const deadline = Date.now() + 120_000;
  while (undelivered() > 0 && Date.now() < deadline) await sleep(500);
  const lost = undelivered();

  // A resend and a recovery of the dead tenant's deliveries, through the API.
  const hooks = await call(dead.account, 'GET', '/v1/webhooks');
  const hookId = String((hooks.json as Array<{ id: string }>)[0]?.id ?? '');
  const listed = await call(dead.account, 'GET', `/v1/webhooks/${hookId}/deliveries?outcome=failed&limit=1000`);
  const failed = (listed.json as Array<{ id: string; error?: string }>) ?? [];
  const ended = {
    backlog_full: failed.filter((d) => d.error?.startsWith('backlog_full')).length,
    expired: failed.filter((d) => d.error?.startsWith('expired')).length,
  };
  if (failed[0]) await call(dead.account, 'POST', `/v1/webhooks/${hookId}/deliveries/${failed[0].id}/resend`);
  const recovery = await call(dead.account, 'POST', `/v1/webhooks/${hookId}/recover`, {
    since: new Date(started).toISOString(),
  });
  let endedMetric = 0;
  for (const d of cluster.of('dispatcher'))
    endedMetric += metricSum(await d.metrics().catch(() => ''), 'dispatcher_deliveries_ended_total');

  // Retention windows reached (pruning every 2 s, the backlog's max age 20 s): one more sample after them.
  await sleep(30_000);
  sampling = false;
  await sampler;
  await sample();
  // The ordering bucket's bound at work: keys that went unordered because it was 90% full, failed
  // keys forgotten after the failure memory.
  const ordering = { bucketFull: 0, forgotten: 0 };
  for (const d of cluster.of('dispatcher')) {
    const m = await d.metrics().catch(() => '');
    ordering.bucketFull += metricSum(m, 'dispatcher_ordering_unordered_total', { reason: 'bucket_full' });
    ordering.forgotten += metricSum(m, 'dispatcher_ordering_failures_forgotten_total');
  }
  const deliveriesAtEnd = await cluster.bus.jsm.streams
    .info('SWITCHBOARD_DELIVERIES', { subjects_filter: '>' })
    .then((i) => i.state.subjects ?? {})
    .catch(() => ({}));

  // Call setup: sessions.new published -> the session POST answered, first and last fifth.
  const setups = [...sessionSent]
    .map(([id, s]) => ({ at: s.at, ms: (rx.stats(s.path).firstOkAt.get(id) ?? Number.NaN) - s.at }))
    .filter((s) => Number.isFinite(s.ms))
    .sort((a, b) => a.at - b.at);
  const fifth = Math.max(1, Math.floor(setups.length / 5));
  const p99Start = percentile(
    setups.slice(0, fifth).map((s) => s.ms),
    99,
  );
  const p99End = percentile(
    setups.slice(-fifth).map((s) => s.ms),
    99,
  );

  // Stores: never above their bound; the second half of the run no larger than the bound (level).
  const bound = { stream: MiB, kv: 64 * 1024 };
  const peak: Record<string, number> = {};
  for (const s of samples) {
    for (const [name, b] of Object.entries(s.streams)) peak[name] = Math.max(peak[name] ?? 0, b);
    peak.SWITCHBOARD_SESSIONS = Math.max(peak.SWITCHBOARD_SESSIONS ?? 0, s.kv);
    peak[ORDERING_STREAM] = Math.max(peak[ORDERING_STREAM] ?? 0, s.ordering);
  }
  const last = samples[samples.length - 1]!;
  const tables = Object.fromEntries(Object.entries(last.tables).map(([k, v]) => [k, Math.round(v / 1024)]));
  // Level: each table's most rows in the last third of the run against the middle third's, once the
  // retention windows have been reached (a table kept for ever grows by about half between them).
  const runEnd = last.at;
  const third = (runEnd - started) / 3;
  const largest = (t: string, from: number, to: number) =>
    Math.max(0, ...samples.filter((x) => x.at >= from && x.at < to).map((x) => x.rows[t] ?? 0));
  const growth: Record<string, number> = {};
  for (const t of LEVELLED_TABLES) {
    const middle = largest(t, started + third, started + 2 * third);
    growth[t] = middle > 0 ? Math.round((largest(t, started + 2 * third, runEnd + 1) / middle) * 100) / 100 : 0;
  }
  const oldest = await oldestRecords(cluster);
  // Warm-up: the first third of the run (V8 sizes its heaps, connection pools and caches fill).
  const warm = (publishedAt - started) / 60_000 / 3;
  const slopes: Record<string, number> = {};
  for (const [name, pts] of rss) slopes[name] = Math.round(slope(pts.filter(([m]) => m >= warm)) * 100) / 100;

  const healthyEvents = published.size;
  // What the services logged as errors, when an API request failed: each replica's first line of
  // each kind of error (its "msg").
  const serviceErrors =
    apiFailures === 0
      ? []
      : cluster.replicas.flatMap((r) => {
          const kinds = new Map<string, string>();
          for (const l of r.stderr().split('\n')) {
            if (!/"level":"(error|fatal)"|"level":5\d/.test(l)) continue;
            const kind = /"msg":"([^"]*)"/.exec(l)?.[1] ?? l.slice(0, 80);
            if (!kinds.has(kind)) kinds.set(kind, `${r.name}: ${l.slice(0, 800)}`);
          }
          return [...kinds.values()].slice(0, 6);
        });
  return finish(
    {
      name: 'soak',
      apiRequests: apiCalls,
      apiFailed: apiFailures,
      eventsPublished: healthyEvents,
      eventsLost: lost,
      duplicates: 0,
      figures: {
        multiple: opts.multiple,
        eventBytes: perEvent,
        eventsSent: total,
        seconds: Math.round((publishedAt - started) / 1000),
        refused: refused.length,
        firstRefusals: refused.slice(0, 3),
        apiFailures: apiFailuresSeen,
        serviceErrors,
        deadEnded: ended,
        deadEndedMetric: endedMetric,
        recoveryStatus: recovery.status,
        callSetupP99StartMs: Math.round(p99Start),
        callSetupP99EndMs: Math.round(p99End),
        storePeakKiB: Object.fromEntries(Object.entries(peak).map(([k, v]) => [k, Math.round(v / 1024)])),
        // How many times its bound each store has taken in.
        storeTurnover: Object.fromEntries(
          Object.entries(written).map(([k, v]) => [
            k,
            Math.round((v / (k.startsWith('KV_') ? bound.kv : bound.stream)) * 10) / 10,
          ]),
        ),
        deliveriesStreamAtEnd: deliveriesAtEnd,
        ordering,
        orderingBucketEndKiB: Math.round(last.ordering / 1024),
        storeEndKiB: Object.fromEntries(Object.entries(last.streams).map(([k, v]) => [k, Math.round(v / 1024)])),
        tableKiB: tables,
        // The most rows in the last third of the run over the middle third's, per table.
        tableGrowth: growth,
        // Age of the oldest record left at the end, per table (its window: 20-40 s).
        oldestRecordSeconds: Object.fromEntries(Object.entries(oldest).map(([k, v]) => [k, Math.round(v / 1000)])),
        rssSlopeMbPerMin: slopes,
      },
    },
    started,
    {
      'no healthy event refused': refused.length === 0,
      'no healthy event lost': lost === 0,
      "the dead tenant's deliveries ended as backlog_full or expired":
        ended.backlog_full + ended.expired > 0 && endedMetric > 0,
      'call setup p99 at the end within 2x of the start (or under 50 ms)': p99End <= Math.max(2 * p99Start, 50),
      [`the inbound stream, the core stream and the session registry each took in at least ${opts.multiple} times their bound`]:
        [STREAMS.events.name, STREAMS.core.name, kvStream(KV_BUCKETS.sessions).stream].every(
          (n) => (written[n] ?? 0) >= opts.multiple * (n.startsWith('KV_') ? bound.kv : bound.stream),
        ),
      // The work queues drained once the traffic stopped and the backlog's max age passed.
      'the work queues hold less than a tenth of their bound at the end':
        (last.streams[STREAMS.events.name] ?? 0) < bound.stream / 10 &&
        (last.streams.SWITCHBOARD_DELIVERIES ?? 0) < bound.stream / 10,
      'streams never above their bound': STREAM_NAMES.every((n) => (peak[n] ?? 0) <= bound.stream),
      'the session registry never above its bound': (peak.SWITCHBOARD_SESSIONS ?? 0) <= bound.kv,
      // The dead tenant's failing keys drive the ordering bucket past its bound: new keys go
      // unordered from 90% full, failed keys leave after the failure memory, and it never comes near
      // max_bytes (where NATS 2.9 would drop its oldest line).
      'the ordering bucket took in more than its bound': (written[ORDERING_STREAM] ?? 0) > bound.kv,
      'the ordering bucket never above 95% of its bound, new keys unordered when nearly full, failed keys forgotten':
        (peak[ORDERING_STREAM] ?? 0) <= 0.95 * bound.kv && ordering.bucketFull > 0 && ordering.forgotten > 0,
      'no API request failed with 5xx': apiFailures === 0,
      [`no record older than its retention window (${(2 * RETENTION_DAY_MS + 7000) / 1000} s) left at the end`]:
        Object.values(oldest).every((ms) => ms <= RETENTION_DAY_MS + RETENTION_SLACK_MS),
      ...(opts.multiple >= 10
        ? {
            'the tables that grow with traffic level off (last third at most 1.3 times the middle third)':
              Object.values(growth).every((g) => g <= 1.3),
          }
        : {}),
    },
  );
}

/** Tables whose size must level off once their retention window is reached. */
const LEVELLED_TABLES = [
  'webhooks.deliveries',
  'webhooks.delivery_bodies',
  'webhooks.sessions',
  'webhooks.session_signals',
  'webhooks.delivery_rollups',
];

/** Bytes of each table (a partitioned one: the sum of its partitions, <table>_pYYYYMMDD[HHMMSS]). */
async function tableSizes(cluster: Cluster): Promise<Record<string, number>> {
  const { queryDatabase } = await import('../../test/support/infra');
  const rows = await queryDatabase<{ name: string; n: string }>(
    cluster.databaseUrl,
    `select s.nspname || '.' || regexp_replace(c.relname, '_p[0-9]{8}([0-9]{6})?$', '') as name,
            sum(pg_total_relation_size(c.oid))::bigint as n
       from pg_class c join pg_namespace s on s.oid = c.relnamespace
      where s.nspname in ('webhooks', 'applications') and c.relkind = 'r'
      group by 1`,
  ).catch(() => []);
  const sizes = new Map(rows.map((r) => [r.name, Number(r.n)]));
  return Object.fromEntries(TABLES.map((t) => [t, sizes.get(t) ?? -1]));
}

/** Rows of each table that must level off (what retention bounds; bytes also hold dead rows until vacuumed). */
async function tableRows(cluster: Cluster): Promise<Record<string, number>> {
  const { queryDatabase } = await import('../../test/support/infra');
  const [row] = await queryDatabase<Record<string, string>>(
    cluster.databaseUrl,
    `select ${LEVELLED_TABLES.map((t, i) => `(select count(*) from ${t})::text as t${i}`).join(', ')}`,
  ).catch(() => [{} as Record<string, string>]);
  return Object.fromEntries(LEVELLED_TABLES.map((t, i) => [t, Number(row?.[`t${i}`] ?? -1)]));
}

/** Age (ms) of the oldest row of each table that keeps records by time. */
async function oldestRecords(cluster: Cluster): Promise<Record<string, number>> {
  const { queryDatabase } = await import('../../test/support/infra');
  const [row] = await queryDatabase<Record<string, string | null>>(
    cluster.databaseUrl,
    `select
       (select extract(epoch from now() - min(created_at)) * 1000 from webhooks.deliveries)::float8::text as deliveries,
       (select extract(epoch from now() - min(created_at)) * 1000 from webhooks.delivery_bodies)::float8::text as bodies,
       (select extract(epoch from now() - min(started_at)) * 1000 from webhooks.sessions)::float8::text as sessions,
       (select extract(epoch from now() - min(at)) * 1000 from webhooks.session_signals)::float8::text as signals,
       (select extract(epoch from now() - min(at)) * 1000 from applications.audit_events)::float8::text as audit,
       (select extract(epoch from now() - min(created_at)) * 1000 from applications.idempotency_keys)::float8::text as idempotency`,
  );
  return Object.fromEntries(Object.entries(row ?? {}).map(([k, v]) => [k, v === null ? 0 : Number(v)]));
}
