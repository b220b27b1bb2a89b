// Every panel query of every Grafana dashboard, run against a real Prometheus (1 s scrapes, the
// repository's job names and alert rules) scraping the running stack on loopback: one process per
// service (proof/cluster.ts), driven with the traffic the panels plot: API successes, 4xx and
// creates, webhook subscriptions, sessions.new and cdr.created events delivered to a receiver,
// malformed events, a target answering 500 (retries, failed attempts), and Postgres stopped for a
// moment (the API's 503s and the gRPC services' UNAVAILABLE, which the error-ratio panels divide).
// A query that errors, or that never answers a series, fails with its dashboard, panel and
// expression: a misspelt metric or label, or a job name no scrape uses, shows up here.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startCluster, type Cluster, type Service } from '../../proof/cluster';
import { cdrEvent, sessionEvent } from '../../proof/lib/load';
import { startReceiver, type Receiver } from '../../proof/lib/receiver';
import { api, newTarget, until, type Target } from '../../proof/scenarios/common';
import { allDashboardQueries, withoutZeroFallback, type DashboardQuery } from '../grafana/queries';
import type { ScrapeTargets } from '../prometheus/config';
import { requireTool } from './lib/tools';
import { checkQueries, startPrometheus, type PrometheusServer } from './lib/prometheus-server';

const JOBS: readonly Service[] = ['gateway', 'applications', 'webhooks', 'dispatcher'];
/** $__rate_interval for a 1 s scrape: wide enough that every series has many samples. */
const RATE_INTERVAL = '30s';
/** How long a query may answer nothing before it fails (some series appear only after retries). */
const RETRY_FOR_MS = 20_000;

let cluster: Cluster | undefined;
let prom: PrometheusServer | undefined;
let rx: Receiver | undefined;
let bad: Receiver | undefined;
/** What the traffic got, for the failure messages: HTTP status counts by step, deliveries seen. */
const traffic: Record<string, unknown> = {};
let trafficEndedAt = 0;

// A failing setup must fail every test with its message (a failing beforeAll would only skip them).
let setupError: unknown;
beforeEach(() => {
  if (setupError) throw setupError;
});

beforeAll(async () => {
  try {
    await setup();
  } catch (err) {
    setupError = err;
  }
}, 180_000);

afterAll(async () => {
  await prom?.stop().catch(() => undefined);
  await Promise.all([rx?.close(), bad?.close()]).catch(() => undefined);
  await cluster?.stop();
}, 60_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function setup(): Promise<void> {
  // Before anything starts: a missing binary is a clear failure, not a skip.
  const binary = requireTool('prometheus');
  // A private Postgres, so that it can be stopped to produce the 5xx the error panels plot.
  cluster = await startCluster({ gateways: 1, applications: 1, webhooks: 1, dispatchers: 1, privatePostgres: true });
  const targets: ScrapeTargets = {};
  for (const job of JOBS) targets[job] = `127.0.0.1:${cluster.of(job)[0]!.metricsPort}`;
  prom = await startPrometheus(targets, { binary, scrapeInterval: '1s', evaluationInterval: '1s' });
  rx = await startReceiver('127.0.0.1');
  // The failing target lives on another loopback address: breakers are per host.
  bad = await startReceiver('127.0.0.2');
  await driveTraffic(cluster, rx, bad);
  trafficEndedAt = Date.now();
}

/** Counts answers by status under `traffic[step]`. */
function count(step: string, status: number): void {
  const c = (traffic[step] ??= {}) as Record<string, number>;
  c[status] = (c[status] ?? 0) + 1;
}

async function driveTraffic(c: Cluster, ok: Receiver, failing: Receiver): Promise<void> {
  // Accounts, webhook subscriptions (POST /v1/webhooks) and applications (POST /v1/applications).
  const good = await newTarget(c, ok, 'live-ok');
  const fail = await newTarget(c, failing, 'live-500');
  failing.setMode(fail.eventsPath, 500);
  failing.setMode(fail.sessionsPath, 500);
  const a = good.account;

  // API: reads, an update, 4xx of several kinds, an unknown route.
  const calls: Array<[string, string, unknown?]> = [
    ['GET', '/v1/applications'],
    ['GET', `/v1/applications/${good.applicationId}`],
    ['PUT', `/v1/applications/${good.applicationId}`, { name: 'live-ok renamed' }],
    ['GET', '/v1/webhooks'],
    ['GET', `/v1/webhooks/${good.subscriptionId}`],
    ['GET', '/v1/applications/00000000-0000-0000-0000-000000000000'],
    ['GET', `/v1/applications/no-such-${randomBytes(3).toString('hex')}`],
    ['POST', '/v1/applications', {}],
    ['POST', '/v1/webhooks', { event: 'noSuchEvent', resource: 'call', targetUrl: ok.url('/x') }],
    ['GET', '/v1/no-such-route'],
  ];
  for (let round = 0; round < 3; round++)
    for (const [method, path, body] of calls) count('api', (await api(c, a, method, path, body)).status);
  for (const authorization of [undefined, `Basic ${Buffer.from(`${a.username}:wrong-password`).toString('base64')}`]) {
    const res = await fetch(`${c.apiUrl}/v1/applications`, {
      headers: authorization ? { authorization } : {},
      signal: AbortSignal.timeout(15_000),
    });
    await res.arrayBuffer();
    count('unauthenticated', res.status);
  }

  // Events: notifications (cdr.created) and sessions (sessions.new) to both targets, and messages
  // the dispatcher must reject for good (not JSON; JSON that is not an event).
  const toGood: string[] = [];
  const publish = async (e: { subject: string; id: string; body: unknown }) =>
    c.bus.js.publish(e.subject, JSON.stringify(e.body), { msgID: e.id, timeout: 5000 });
  const tag = randomBytes(3).toString('hex');
  for (let i = 0; i < 3; i++) {
    for (const [name, t] of [
      ['ok', good],
      ['500', fail],
    ] as Array<[string, Target]>) {
      const cdr = cdrEvent(`live-${tag}-${name}-cdr-${i}`, t.account.id);
      const session = sessionEvent(`live-${tag}-${name}-session-${i}`, t.account.id, t.applicationId);
      await publish(cdr);
      await publish(session);
      if (t === good) toGood.push(cdr.id, session.id);
    }
  }
  await c.bus.js.publish('cdr.created', 'this is not JSON', { msgID: `live-${tag}-garbage`, timeout: 5000 });
  await c.bus.js.publish('sessions.new', JSON.stringify({ hello: 'world' }), {
    msgID: `live-${tag}-invalid`,
    timeout: 5000,
  });

  // Deliveries answered 2xx by the good receiver; first attempts and retries at the failing one.
  const okIds = () => new Set([...ok.stats(good.eventsPath).okEvents, ...ok.stats(good.sessionsPath).okEvents]);
  const delivered = await until(() => toGood.every((id) => okIds().has(id)), 30_000);
  const retried = await until(
    () => failing.stats(fail.eventsPath).requests > 3 && failing.stats(fail.sessionsPath).requests > 3,
    30_000,
  );
  traffic.deliveries = {
    okDelivered: okIds().size,
    allOkDelivered: delivered !== undefined,
    failingRequests: {
      notifications: failing.stats(fail.eventsPath).requests,
      sessions: failing.stats(fail.sessionsPath).requests,
    },
    retriedAtFailingTarget: retried !== undefined,
  };

  // Postgres away for a moment: the API answers 503 and the gRPC services UNAVAILABLE, which the
  // 5xx and gRPC error panels plot (a healthy stack produces no such series at all).
  await c.stopPostgres();
  try {
    const outageEnds = Date.now() + 10_000;
    let failed = 0;
    while (failed < 4 && Date.now() < outageEnds) {
      for (const path of [`/v1/applications/${good.applicationId}`, '/v1/webhooks']) {
        const res = await api(c, a, 'GET', path).catch(() => ({ status: 0 }));
        count('postgresDown', res.status);
        if (res.status >= 500) failed++;
      }
      await sleep(100);
    }
  } finally {
    await c.startPostgres();
  }
  // Back to normal before the queries run.
  const deadline = Date.now() + 30_000;
  for (;;) {
    const [app, hooks] = await Promise.all([
      api(c, a, 'GET', `/v1/applications/${good.applicationId}`),
      api(c, a, 'GET', '/v1/webhooks'),
    ]).catch(() => [{ status: 0 }, { status: 0 }]);
    if (app.status === 200 && hooks.status === 200) break;
    if (Date.now() > deadline)
      throw new Error(
        `the API did not recover within 30 s after Postgres restarted (last: ${app.status}, ${hooks.status})`,
      );
    await sleep(250);
  }
}

const label = (q: DashboardQuery) => `${q.file} "${q.panelTitle}" ${q.refId}`;

describe('dashboards against a live Prometheus scraping the running stack', () => {
  const queries = allDashboardQueries({ __rate_interval: RATE_INTERVAL });

  it('every target of every service is scraped under the job names the dashboards use', async () => {
    await prom!.waitForTargets(JOBS, 30_000);
  }, 60_000);

  it('every panel query answers with data (no query error, no series the stack never produces)', async () => {
    expect(queries.length).toBeGreaterThan(0);
    // A scrape of every job 1.5 s after the last request (so one or two since it): rate() has samples on both sides of it.
    await prom!.waitForScrapeAfter(JOBS, trafficEndedAt + 1500, 30_000);
    // A panel with a zero fallback (an error ratio that shows 0, not "No data", on a healthy stack)
    // is also run without it: the traffic above includes errors, so its numerator must answer too.
    const checks = queries.flatMap((q) => {
      const bare = withoutZeroFallback(q.expr);
      return [
        { name: label(q), expr: q.expr },
        ...(bare !== q.expr ? [{ name: `${label(q)} without its zero fallback`, expr: bare }] : []),
      ];
    });
    expect(checks.length).toBeGreaterThan(queries.length);
    const problems = await checkQueries(prom!, checks, { retryForMs: RETRY_FOR_MS });
    expect(
      problems,
      `panels without data (dashboard "panel" refId: reason: query); the traffic driven: ${JSON.stringify(traffic)}`,
    ).toEqual([]);
  }, 120_000);

  it('the alert rules loaded next to them evaluate without error', async () => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const res = (await (await fetch(`${prom!.url}/api/v1/rules`, { signal: AbortSignal.timeout(5000) })).json()) as {
        data: { groups: Array<{ name: string; rules: Array<{ name: string; health: string; lastError?: string }> }> };
      };
      const rules = res.data.groups.flatMap((g) => g.rules.map((r) => ({ ...r, group: g.name })));
      expect(rules.length).toBeGreaterThan(0);
      const errors = rules.filter((r) => r.health === 'err').map((r) => `${r.group}/${r.name}: ${r.lastError}`);
      expect(errors).toEqual([]);
      if (rules.every((r) => r.health === 'ok')) return;
      if (Date.now() > deadline)
        throw new Error(
          `rules not evaluated after 15 s: ${rules
            .filter((r) => r.health !== 'ok')
            .map((r) => r.name)
            .join(', ')}`,
        );
      await sleep(500);
    }
  }, 60_000);

  it('the check itself reports a misspelt metric, a wrong job name and a syntax error', async () => {
    const problems = await checkQueries(
      prom!,
      [
        { name: 'misspelt metric', expr: `sum(rate(gateway_http_request_total[${RATE_INTERVAL}]))` },
        { name: 'wrong job', expr: 'count(up{job="gatway"} == 1)' },
        { name: 'wrong label value', expr: 'sum(dispatcher_breakers{state="half-open"})' },
        { name: 'syntax error', expr: 'sum(rate(gateway_http_requests_total[30s])' },
        { name: 'fine', expr: `sum(rate(gateway_http_requests_total[${RATE_INTERVAL}]))` },
      ],
      { retryForMs: 0 },
    );
    expect(problems).toEqual([
      expect.stringMatching(/^misspelt metric: empty result/),
      expect.stringMatching(/^wrong job: empty result/),
      expect.stringMatching(/^wrong label value: empty result/),
      expect.stringMatching(/^syntax error: query error \(bad_data/),
    ]);
  }, 30_000);
});
