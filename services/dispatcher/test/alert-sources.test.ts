// The alerts raised by deliveries, subscriptions and launches, through the real stack:
// webhook.failing and delivery.backlog_full from the dispatcher's attempt records as the webhooks
// service stores them, webhook.disabled as it disables a subscription (410 Gone), launch.refused
// from the applications service's report of launches its budget refused. Each is listed by the
// gateway with its links, sent to the account's `alert` subscriber once per minute, and is another
// account's 404.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  metricSum,
  useDeliveryStack,
  waitFor,
  type JsonBody,
  type Receiver,
  type Services,
  type TestAccount,
} from '../../../test/support';
import { cdrEvent, TEST_DISPATCHER_ENV } from './harness';

const CAP = 3;
let stack: Services<{ gateway: true; webhooks: true; dispatcher: true }>;
let rx: Receiver;
let other: TestAccount;

useDeliveryStack(
  {
    gateway: true,
    dispatcher: true,
    dispatcherEnv: {
      ...TEST_DISPATCHER_ENV,
      // A failed attempt waits an hour for its retry; past the cap, the oldest waiting end.
      DELIVERY_RETRY_SCHEDULE: '1h',
      DELIVERY_BACKLOG_PER_ACCOUNT: String(CAP),
      DELIVERY_BACKLOG_RECHECK: '1s',
      // The dead receiver and the alert subscriber share one host: its breaker must not open, or
      // the alert events would wait behind it and count in the capped backlog themselves.
      DELIVERY_BREAKER_VOLUME_THRESHOLD: '1000',
    },
    // One launch, then 429 for a long while.
    env: { SESSION_LAUNCH_RATE_PER_ACCOUNT: '0.001', SESSION_LAUNCH_BURST_PER_ACCOUNT: '1' },
  },
  (f) => ({ stack, rx } = f),
);
beforeAll(async () => {
  other = await stack.createAccount('other');
});

type Body = Record<string, JsonBody>;
const json = async (res: Response) => (await res.json()) as Body;

async function subscribe(account: TestAccount, event: string, path: string): Promise<string> {
  const res = await stack.request(account, 'POST', '/v1/webhooks', { event, resource: 'all', targetUrl: rx.url(path) });
  expect(res.status, await res.clone().text()).toBe(200);
  return String((await json(res)).href)
    .split('/')
    .pop()!;
}

async function alertsOf(account: TestAccount, query = ''): Promise<Body[]> {
  const res = await stack.request(account, 'GET', `/v1/alerts${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Body[];
}

/** Waits until the account lists an alert of the code; answers the alerts of that code. */
function alertsOfCode(account: TestAccount, code: string): Promise<Body[]> {
  return waitFor(
    async () => {
      const list = await alertsOf(account, `?code=${code}`);
      return list.length > 0 ? list : undefined;
    },
    { what: `a ${code} alert`, timeoutMs: 30_000 },
  );
}

/** The alert events an alert subscriber received, of one code. */
const eventsOf = (path: string, code: string) =>
  rx
    .at(path)
    .filter((r) => ((r.body as Body).data as Body).code === code)
    .map((r) => (r.body as Body).data as Body);

/** Another account reads none of these alerts. */
async function hiddenFromOthers(alerts: Body[]): Promise<void> {
  expect((await alertsOf(other)).map((a) => a.id)).not.toEqual(expect.arrayContaining(alerts.map((a) => a.id)));
  for (const a of alerts) expect((await stack.request(other, 'GET', `/v1/alerts/${a.id}`)).status).toBe(404);
}

describe('alerts of deliveries and subscriptions', () => {
  it('when a subscription fails most of its deliveries and its account passes its backlog cap, then webhook.failing and delivery.backlog_full are raised once per minute, linked to a delivery', async () => {
    const me = await stack.createAccount('failing');
    const sub = await subscribe(me, 'cdrCreated', '/failing/dead');
    rx.on('/failing/dead', () => 503);
    await subscribe(me, 'alert', '/failing/alerts');
    const N = 14;
    for (let i = 0; i < N; i++) await stack.publish('cdr.created', cdrEvent(me.id, { id: `fail-${i}` }));

    const failing = await alertsOfCode(me, 'webhook.failing');
    expect(failing[0]).toMatchObject({
      code: 'webhook.failing',
      severity: 'error',
      subscriptionId: sub,
      sessionId: null,
    });
    expect(failing[0]!.message).toMatch(/of the subscription's \d+ delivery attempts of the last 5 minutes failed/);
    expect(failing[0]!.link).toBe(`${stack.baseUrl}/console/webhooks/${sub}/deliveries/${failing[0]!.deliveryId}`);
    expect((await stack.request(me, 'GET', `/v1/deliveries/${failing[0]!.deliveryId}`)).status).toBe(200);

    // Past the cap of 3 waiting deliveries, the oldest end: one alert row, counting every one.
    const full = await waitFor(
      async () => {
        const list = await alertsOf(me, '?code=delivery.backlog_full');
        const n = list.reduce((sum, a) => sum + Number(a.count), 0);
        return n >= N - CAP ? list : undefined;
      },
      { what: 'the deliveries ended as backlog_full', timeoutMs: 30_000 },
    );
    // One row per minute (two if the minute turned meanwhile), never one per delivery.
    expect(full.length).toBeLessThanOrEqual(2);
    expect(full[full.length - 1]).toMatchObject({ subscriptionId: sub, severity: 'error' });
    const ended = full[full.length - 1]!;
    expect(ended.message).toMatch(/^A delivery ended without a further attempt: backlog_full: /);
    expect(ended.link).toBe(`${stack.baseUrl}/console/webhooks/${sub}/deliveries/${ended.deliveryId}`);

    // The alert subscriber: one event per alert row, as the API lists them.
    await waitFor(() => eventsOf('/failing/alerts', 'delivery.backlog_full').length >= full.length, {
      what: 'the backlog alert events',
      timeoutMs: 20_000,
    });
    const failingRows = await alertsOf(me, '?code=webhook.failing');
    await waitFor(() => eventsOf('/failing/alerts', 'webhook.failing').length >= failingRows.length, {
      what: 'the failing alert events',
      timeoutMs: 20_000,
    });
    expect(
      eventsOf('/failing/alerts', 'delivery.backlog_full')
        .map((d) => d.id)
        .sort(),
    ).toEqual(full.map((a) => a.id).sort());
    expect(eventsOf('/failing/alerts', 'webhook.failing')[0]).toMatchObject({
      subscriptionId: sub,
      link: failingRows[failingRows.length - 1]!.link,
    });
    await hiddenFromOthers([...full, ...failingRows]);
    const metrics = await (await fetch(`http://127.0.0.1:${stack.webhooks.opsPort}/metrics`)).text();
    const counted = metricSum(metrics, 'webhooks_alerts_total', { code: 'delivery.backlog_full' });
    expect(counted).toBeGreaterThanOrEqual(N - CAP);
  });

  it('when a subscription is disabled (410 Gone), then webhook.disabled is raised, linked to the subscription', async () => {
    const me = await stack.createAccount('gone');
    const sub = await subscribe(me, 'cdrCreated', '/gone/target');
    rx.on('/gone/target', () => 410);
    await subscribe(me, 'alert', '/gone/alerts');
    await stack.publish('cdr.created', cdrEvent(me.id, { id: 'gone-1' }));
    const [alert] = await alertsOfCode(me, 'webhook.disabled');
    expect(alert).toMatchObject({
      code: 'webhook.disabled',
      severity: 'error',
      count: 1,
      subscriptionId: sub,
      deliveryId: null,
      link: `${stack.baseUrl}/console/webhooks/${sub}`,
    });
    expect(alert!.message).toMatch(/^The subscription was disabled: .*410/);
    const sub410 = await json(await stack.request(me, 'GET', `/v1/webhooks/${sub}`));
    expect(sub410.enabled).toBe(false);
    await waitFor(() => eventsOf('/gone/alerts', 'webhook.disabled').length === 1, {
      what: 'the alert event',
      timeoutMs: 20_000,
    });
    expect(eventsOf('/gone/alerts', 'webhook.disabled')[0]).toMatchObject({ id: alert!.id, subscriptionId: sub });
    await hiddenFromOthers([alert!]);
  });
});

describe('alerts of launches', () => {
  it("when the account's launch budget refuses launches, then one launch.refused alert is raised for the minute, linked to the application", async () => {
    const me = await stack.createAccount('launcher');
    const res = await stack.request(me, 'POST', '/v1/applications', { name: 'l', voiceUrl: rx.url('/l/voice') });
    const app = String((await json(res)).href)
      .split('/')
      .pop()!;
    rx.on('/l/voice', () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"tropo":[]}' }));
    const t = await stack.request(me, 'POST', `/v1/applications/${app}/addresses`, { type: 'token', channel: 'voice' });
    const token = String((await json(t)).href)
      .split('/')
      .pop()!;
    await subscribe(me, 'alert', '/l/alerts');
    const launch = () =>
      stack.request(undefined, 'POST', `/v1/sessions?token=${token}`, {}, { accept: 'application/json' });
    expect((await launch()).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await launch()).status).toBe(429);

    const [alert] = await alertsOfCode(me, 'launch.refused');
    expect(alert).toMatchObject({
      code: 'launch.refused',
      severity: 'warning',
      applicationId: app,
      subscriptionId: null,
      sessionId: null,
      link: `${stack.baseUrl}/console/applications/${app}`,
    });
    expect(alert!.message).toMatch(/^Session launches were refused \(429\): this account launches at most/);
    await waitFor(() => eventsOf('/l/alerts', 'launch.refused').length === 1, {
      what: 'the alert event',
      timeoutMs: 20_000,
    });
    // Five refusals in a minute are reported once (the alert counts the reports, not the refusals).
    const rows = await alertsOf(me, '?code=launch.refused');
    expect(rows.reduce((n, a) => n + Number(a.count), 0)).toBeLessThanOrEqual(2);
    await hiddenFromOthers([alert!]);
  });
});
