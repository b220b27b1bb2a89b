// Alerts through the real stack: a session whose application answers badly -> a dispatcher POSTing to
// a loopback application -> its session record on JetStream -> the webhooks service, which stores the
// session and its alert in one transaction -> GET /v1/alerts and GET /v1/alerts/:id at the gateway.
import { describe, expect, it } from 'vitest';
import { jsonOf, queryDatabase, waitFor, type JsonBody, type TestAccount } from '../../../test/support';
import { me, newApp, other, rx, stack, startSession, useFullStack } from './full-stack';
import { keepAlertsOnce } from '../../webhooks/src/alerts/keep-alerts';

useFullStack('alerts');

type Alert = Record<string, JsonBody>;
const HTML = { status: 200, headers: { 'content-type': 'text/html' }, body: '<html><body>Oops</body></html>' };

async function alertsOf(account: TestAccount, query = ''): Promise<Alert[]> {
  const res = await stack.request(account, 'GET', `/v1/alerts${query}`);
  expect(res.status).toBe(200);
  return (await jsonOf(res)) as Alert[];
}

describe('alerts of sessions', () => {
  it('when an application answers HTML, then an app.not_json alert is listed within 2 s, linked to the failing attempt', async () => {
    const app = await newApp(me, 'html');
    rx.on('/html/voice', () => HTML);
    const id = await startSession(app);
    const [alert] = await waitFor(
      async () => {
        const list = await alertsOf(me, `?applicationId=${app}`);
        return list.length > 0 ? list : undefined;
      },
      { what: 'the alert', timeoutMs: 2000 },
    );
    expect(alert).toMatchObject({
      code: 'app.not_json',
      severity: 'error',
      count: 1,
      applicationId: app,
      sessionId: id,
      subscriptionId: null,
      deliveryId: null,
      message: expect.stringContaining('not JSON'),
      link: `${stack.baseUrl}/console/sessions/${id}#attempt-1`,
      session: `${stack.baseUrl}/v1/sessions/${id}`,
    });
    // The link's attempt is the one that answered HTML.
    const session = (await jsonOf(await stack.request(me, 'GET', `/v1/sessions/${id}`))) as Alert;
    expect((session.attempts as Alert[])[0]).toMatchObject({
      status: 200,
      error: expect.stringMatching(/^not_json: /),
      responseExcerpt: { text: HTML.body },
    });
    // One alert read alone is the same; another account finds neither it nor any alert.
    const one = await stack.request(me, 'GET', `/v1/alerts/${alert!.id}`);
    expect(one.status).toBe(200);
    expect(await jsonOf(one)).toEqual(alert);
    expect(await alertsOf(other)).toEqual([]);
    const theirs = await stack.request(other, 'GET', `/v1/alerts/${alert!.id}`);
    expect(theirs.status).toBe(404);
    expect(theirs.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('when 100 sessions of an application answer HTML within one minute, then one alert with count 100 is stored', async () => {
    const app = await newApp(me, 'storm');
    rx.on('/storm/voice', () => HTML);
    // All 100 start within one minute: begin at the start of one when less than 40 s of this one are left.
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 40_000) await new Promise((r) => setTimeout(r, left + 50));
    const ids = await Promise.all(Array.from({ length: 100 }, () => startSession(app)));
    const list = await waitFor(
      async () => {
        const l = await alertsOf(me, `?applicationId=${app}&code=app.not_json`);
        return l[0]?.count === 100 ? l : undefined;
      },
      { what: 'the folded alert', timeoutMs: 60_000 },
    );
    expect(list).toHaveLength(1);
    expect(ids).toContain(list[0]!.sessionId);
    const [row] = await queryDatabase<{ n: string }>(
      stack.databaseUrl,
      `select count(*)::text as n from webhooks.alerts where application_id = $1`,
      [app],
    );
    expect(row!.n).toBe('1');
    expect(await alertsOf(other)).toEqual([]);
  }, 120_000);

  it('when the primary URL fails and the fallback answers, then the session raises its failure and app.fallback_used', async () => {
    const app = await newApp(me, 'fb', { voiceUrl: '/voice', voiceFallbackUrl: '/fallback' });
    rx.on('/fb/voice', () => ({ status: 503, body: 'down' }));
    rx.on('/fb/fallback', () => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tropo: [{ hangup: null }] }),
    }));
    const id = await startSession(app);
    const list = await waitFor(
      async () => {
        const l = await alertsOf(me, `?applicationId=${app}`);
        return l.length === 2 ? l : undefined;
      },
      { what: 'two alerts', timeoutMs: 20_000 },
    );
    const byCode = Object.fromEntries(list.map((a) => [a.code, a]));
    expect(byCode['app.http_5xx']).toMatchObject({ severity: 'error', sessionId: id });
    expect(byCode['app.fallback_used']).toMatchObject({ severity: 'warning', sessionId: id });
    // The fallback's attempt comes after the primary's (tried up to 3 times on a 5xx).
    expect(byCode['app.fallback_used']!.link).toMatch(/#attempt-[2-4]$/);
    expect(await alertsOf(me, `?applicationId=${app}&severity=warning`)).toHaveLength(1);
  });
});

describe('reading alerts', () => {
  it('when a filter is not one the API knows, then a 400 names it', async () => {
    const res = await stack.request(me, 'GET', '/v1/alerts?code=app.nope&severity=fatal&since=yesterday');
    expect(res.status).toBe(400);
    const body = JSON.stringify(await jsonOf(res));
    for (const field of ['code', 'severity', 'since']) expect(body).toContain(`"${field}"`);
    expect((await stack.request(me, 'GET', '/v1/alerts/not-an-id')).status).toBe(404);
  });

  it('when alerts are listed with a limit, then the pages follow each other newest first', async () => {
    const all = await alertsOf(me);
    expect(all.length).toBeGreaterThanOrEqual(3);
    const first = await stack.request(me, 'GET', '/v1/alerts?limit=2');
    const page1 = (await jsonOf(first)) as Alert[];
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1];
    expect(next).toBeDefined();
    const page2 = (await jsonOf(await stack.request(me, 'GET', next!.replace(stack.baseUrl, '')))) as Alert[];
    expect([...page1, ...page2].map((a) => a.id)).toEqual(all.slice(0, page1.length + page2.length).map((a) => a.id));
    const times = all.map((a) => Date.parse(String(a.at)));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('when a day of alerts is older than ALERT_RETENTION_DAYS, then its partition is dropped and its alerts are gone', async () => {
    const deps = { orm: stack.webhooks.app.orm, schema: 'webhooks' };
    const before = (await alertsOf(me)).length;
    expect(before).toBeGreaterThan(0);
    // Nothing is dropped within the retention; a pass 31 days on drops today's partition.
    expect(await keepAlertsOnce(deps, 30)).toEqual([]);
    const dropped = await keepAlertsOnce(deps, 30, new Date(Date.now() + 31 * 86_400_000));
    expect(dropped.length).toBeGreaterThan(0);
    expect(await alertsOf(me)).toEqual([]);
  });
});
