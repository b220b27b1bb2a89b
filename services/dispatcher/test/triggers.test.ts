// Alert triggers, usage and usage triggers through the real stack: session records -> the webhooks
// service, which folds their alerts, counts their usage and fires the alert triggers in the
// transaction that stores them (and the usage triggers from its periodic pass) -> alerts.triggered
// / usage.triggered on the events stream through its outbox -> the dispatcher's fan-out to the
// subscribers, signed (verified with the published `standardwebhooks` library).
import { randomUUID } from 'node:crypto';
import { JOB_SUBJECTS } from '../src/streams';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { jsonOf, metricSum, randomName, waitFor, type JsonBody, type TestAccount } from '../../../test/support';
import { me, newApp, other, rx, stack, subscribe, useFullStack } from './full-stack';

useFullStack('trig', { USAGE_TRIGGER_INTERVAL_MS: '200' });

type Body = Record<string, JsonBody>;
const JSON_TYPE = { 'content-type': 'application/json' };

async function create(account: TestAccount, path: string, body: unknown): Promise<Body> {
  const res = await stack.request(account, 'POST', path, body);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Body;
}

/** A failed session's record as a dispatcher sends it: one attempt whose answer was not JSON. */
function notJsonRecord(accountId: string, applicationId: string, startedAt: Date) {
  const at = startedAt.toISOString();
  return {
    id: randomUUID().replaceAll('-', ''),
    applicationId,
    accountId,
    channel: 'VOICE',
    from: '+14155550100',
    to: '+14075550199',
    startedAt: at,
    routedBy: { type: 'application', value: applicationId },
    outcome: 'failed',
    attempts: [
      {
        at,
        url: 'https://app.example/voice',
        role: 'primary',
        status: 200,
        durationMs: 12,
        error: 'not_json: HTTP 200 with a body that is not JSON',
        responseContentType: 'text/html',
        responseExcerpt: '<p>no</p>',
        responseTruncated: false,
      },
    ],
    instructions: null,
    failure: { reason: 'not_json' },
  };
}

/** Passes of the usage triggers run so far. */
const passes = async () =>
  metricSum(
    await (await fetch(`http://127.0.0.1:${stack.webhooks.opsPort}/metrics`)).text(),
    'webhooks_usage_trigger_passes_total',
  );

/** Waits until the usage triggers' pass has run twice more: one whole pass after now at least. */
async function twoMorePasses(): Promise<void> {
  const start = await passes();
  let n = start;
  await waitFor(
    async () => {
      n = await passes();
      return n >= start + 2;
    },
    { what: 'two usage trigger passes', timeoutMs: 20_000 },
  );
}

const problemFields = async (res: Response) =>
  (((await res.json()) as Body).errors as Body[] | undefined)?.map((e) => e.field) ?? [];

describe('alert triggers', () => {
  it('when 100 app.not_json sessions fail in one minute, then one alert counts 100 and one signed alertTriggered is sent', async () => {
    const app = await newApp(me, 'storm');
    const secret = await subscribe(me, 'alertTriggered', '/storm/triggered');
    await subscribe(other, 'alertTriggered', '/storm/others');
    const trigger = await create(me, '/v1/alert-triggers', {
      code: 'app.not_json',
      applicationId: app,
      threshold: 100,
      window: '1m',
    });
    expect(trigger).toMatchObject({ code: 'app.not_json', applicationId: app, threshold: 100, window: '1m' });
    expect(trigger).toMatchObject({ lastFiredAt: null, firedCount: 0 });
    const higher = await create(me, '/v1/alert-triggers', { code: '*', threshold: 101, window: '5m' });

    // Every record starts in one minute (the one now), whatever the time the test runs at.
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    for (let i = 0; i < 100; i++)
      await stack.publish(JOB_SUBJECTS.sessions, notJsonRecord(me.id, app, new Date(minute + 1000 + i * 100)));
    await waitFor(() => rx.at('/storm/triggered').length >= 1, { what: 'the alertTriggered', timeoutMs: 30_000 });

    const alerts = async () =>
      (await jsonOf(await stack.request(me, 'GET', `/v1/alerts?code=app.not_json&applicationId=${app}`))) as Body[];
    await waitFor(async () => (await alerts())[0]?.count === 100, {
      what: 'the alert counting 100',
      timeoutMs: 20_000,
    });
    expect(await alerts()).toHaveLength(1);

    const [req] = rx.at('/storm/triggered');
    new Webhook(secret).verify(req!.raw, req!.headers as Record<string, string>);
    expect(req!.body).toMatchObject({
      event: 'alertTriggered',
      resource: 'all',
      accountId: me.id,
      applicationId: app,
      data: {
        triggerId: trigger.id,
        code: 'app.not_json',
        applicationId: app,
        threshold: 100,
        window: '1m',
        count: 100,
        windowStart: new Date(minute).toISOString(),
        alertId: (await alerts())[0]!.id,
      },
    });
    // Fired once: its firing state is one row, and the outbox had one event for it.
    const shown = (await jsonOf(await stack.request(me, 'GET', `/v1/alert-triggers/${trigger.id}`))) as Body;
    expect(shown).toMatchObject({ firedCount: 1 });
    expect(shown.lastFiredAt).not.toBeNull();
    expect(((await jsonOf(await stack.request(me, 'GET', `/v1/alert-triggers/${higher.id}`))) as Body).firedCount).toBe(
      0,
    );

    // One more in the same minute: the 101 of any code fire the other trigger; the first stays quiet in its window.
    await stack.publish(JOB_SUBJECTS.sessions, notJsonRecord(me.id, app, new Date(minute + 20_000)));
    await waitFor(() => rx.at('/storm/triggered').length >= 2, { what: 'the second trigger', timeoutMs: 30_000 });
    const second = rx.at('/storm/triggered')[1]!.body as Body;
    expect(second).toMatchObject({ data: { triggerId: higher.id, code: '*', count: 101, applicationId: null } });
    expect(
      ((await jsonOf(await stack.request(me, 'GET', `/v1/alert-triggers/${trigger.id}`))) as Body).firedCount,
    ).toBe(1);
    expect(rx.at('/storm/triggered')).toHaveLength(2);
    expect(rx.at('/storm/others')).toHaveLength(0);

    // Their creation is in the audit log.
    const audit = (await jsonOf(
      await stack.request(me, 'GET', '/v1/audit-events?action=alert-trigger.create'),
    )) as Body[];
    expect(audit.map((e) => e.target)).toEqual(
      expect.arrayContaining([`${stack.baseUrl}/v1/alert-triggers/${trigger.id}`]),
    );
  }, 90_000);

  it('when another account asks for them, then it sees none of them and cannot delete them', async () => {
    const trigger = await create(me, '/v1/alert-triggers', { code: 'app.timeout', threshold: 5, window: '1h' });
    expect((await stack.request(other, 'GET', `/v1/alert-triggers/${trigger.id}`)).status).toBe(404);
    expect((await stack.request(other, 'DELETE', `/v1/alert-triggers/${trigger.id}`)).status).toBe(404);
    expect(await jsonOf(await stack.request(other, 'GET', '/v1/alert-triggers'))).toEqual([]);
    expect(await jsonOf(await stack.request(other, 'GET', '/v1/usage-triggers'))).toEqual([]);
    const usage = (await jsonOf(await stack.request(other, 'GET', '/v1/usage?category=alerts'))) as Body;
    expect(usage.total).toBe(0);
    // Its owner deletes it (audited); then it is gone.
    expect((await stack.request(me, 'DELETE', `/v1/alert-triggers/${trigger.id}`)).status).toBe(200);
    expect((await stack.request(me, 'GET', `/v1/alert-triggers/${trigger.id}`)).status).toBe(404);
    const audit = (await jsonOf(
      await stack.request(me, 'GET', '/v1/audit-events?action=alert-trigger.delete'),
    )) as Body[];
    expect(audit.map((e) => e.target)).toContain(`${stack.baseUrl}/v1/alert-triggers/${trigger.id}`);
  });

  it('when the application a trigger watches is deleted, then the trigger goes with it', async () => {
    const app = await newApp(me, 'gone');
    const watching = await create(me, '/v1/alert-triggers', {
      code: '*',
      applicationId: app,
      threshold: 2,
      window: '1h',
    });
    const all = await create(me, '/v1/alert-triggers', { code: '*', threshold: 2, window: '1h' });
    expect((await stack.request(me, 'DELETE', `/v1/applications/${app}`)).status).toBe(200);
    await waitFor(async () => (await stack.request(me, 'GET', `/v1/alert-triggers/${watching.id}`)).status === 404, {
      what: 'the trigger deleted with its application',
      timeoutMs: 20_000,
    });
    expect((await stack.request(me, 'GET', `/v1/alert-triggers/${all.id}`)).status).toBe(200);
    // A trigger for the deleted application cannot be made again.
    const again = await stack.request(me, 'POST', '/v1/alert-triggers', {
      code: '*',
      applicationId: app,
      threshold: 2,
      window: '1h',
    });
    expect(again.status).toBe(400);
    expect(await problemFields(again)).toEqual(['applicationId']);
  });

  it('when the input is bad, then a 400 names each field, and the 51st trigger is a 409', async () => {
    const bad = async (body: unknown) => {
      const res = await stack.request(me, 'POST', '/v1/alert-triggers', body);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      return problemFields(res);
    };
    expect(await bad({ code: 'app.not_json', threshold: 0, window: '1m' })).toEqual(['threshold']);
    expect(await bad({ code: 'app.not_json', threshold: 5, window: '30s' })).toEqual(['window']);
    expect(await bad({ code: 'app.not_json', threshold: 5, window: '25h' })).toEqual(['window']);
    expect(await bad({ code: 'app.nope', threshold: 5, window: '1m' })).toEqual(['code']);
    expect(await bad({ code: 'app.not_json', threshold: 5, window: '1m', applicationId: 'nope' })).toEqual([
      'applicationId',
    ]);
    expect(await bad({})).toEqual(expect.arrayContaining(['code', 'threshold', 'window']));

    const account = await stack.createAccount('many');
    for (let i = 0; i < 50; i++)
      await create(account, '/v1/alert-triggers', { code: '*', threshold: i + 1, window: '1m' });
    const res = await stack.request(account, 'POST', '/v1/alert-triggers', { code: '*', threshold: 1, window: '1m' });
    expect(res.status).toBe(409);
    expect(((await res.json()) as Body).code).toBe('limit_exceeded');
    expect(await stack.listAll(account, '/v1/alert-triggers')).toHaveLength(50);
  }, 90_000);
});

describe('usage and usage triggers', () => {
  it('when a daily usage trigger at 3 voice sessions is crossed, then one signed usageTriggered is sent, and not again that day', async () => {
    // An account of its own: the other tests' sessions do not count in its usage.
    const owner = await stack.createAccount('usage');
    const app = await newApp(owner, 'usage');
    rx.on('/usage/voice', () => ({
      status: 200,
      headers: JSON_TYPE,
      body: JSON.stringify({ tropo: [{ say: { value: 'hi' } }] }),
    }));
    const secret = await subscribe(owner, 'usageTriggered', '/usage/triggered');
    await subscribe(other, 'usageTriggered', '/usage/others');
    const voiceToday = async () => {
      const u = (await jsonOf(
        await stack.request(owner, 'GET', `/v1/usage?category=sessions.voice&applicationId=${app}`),
      )) as Body;
      return u.total as number;
    };
    const session = async () => {
      const before = await voiceToday();
      await stack.publish('sessions.new', {
        applicationId: app,
        session: {
          id: randomName('sess'),
          from: { id: '+14155550100', channel: 'VOICE', network: 'PSTN' },
          to: { id: '+14075550199', channel: 'VOICE', network: 'PSTN' },
        },
      });
      await waitFor(async () => (await voiceToday()) === before + 1, {
        what: 'the session counted',
        timeoutMs: 20_000,
      });
    };
    const trigger = await create(owner, '/v1/usage-triggers', {
      category: 'sessions.voice',
      threshold: 3,
      recurring: 'daily',
    });
    expect(trigger).toMatchObject({ category: 'sessions.voice', threshold: 3, recurring: 'daily', lastFiredAt: null });
    const base = ((await jsonOf(await stack.request(owner, 'GET', '/v1/usage?category=sessions.voice'))) as Body)
      .total as number;
    expect(base).toBe(0);

    await session();
    await session();
    await twoMorePasses();
    expect(rx.at('/usage/triggered')).toHaveLength(0);
    await session();
    await waitFor(() => rx.at('/usage/triggered').length >= 1, { what: 'the usageTriggered', timeoutMs: 60_000 });
    const [req] = rx.at('/usage/triggered');
    new Webhook(secret).verify(req!.raw, req!.headers as Record<string, string>);
    const today = new Date().toISOString().slice(0, 10);
    expect(req!.body).toMatchObject({
      event: 'usageTriggered',
      resource: 'all',
      accountId: owner.id,
      applicationId: null,
      data: {
        triggerId: trigger.id,
        category: 'sessions.voice',
        threshold: 3,
        recurring: 'daily',
        periodStart: `${today}T00:00:00.000Z`,
        usage: 3,
      },
    });

    await session();
    await twoMorePasses();
    expect(rx.at('/usage/triggered')).toHaveLength(1);
    expect(rx.at('/usage/others')).toHaveLength(0);
    const shown = (await jsonOf(await stack.request(owner, 'GET', `/v1/usage-triggers/${trigger.id}`))) as Body;
    expect(shown).toMatchObject({ lastFiredPeriod: today });
    expect((await stack.request(other, 'GET', `/v1/usage-triggers/${trigger.id}`)).status).toBe(404);

    // The usage equals the application's statistics over the same sessions.
    const usage = (await jsonOf(
      await stack.request(owner, 'GET', `/v1/usage?category=sessions&applicationId=${app}&period=month`),
    )) as Body;
    const stats = (await jsonOf(await stack.request(owner, 'GET', `/v1/applications/${app}/stats?window=24h`))) as Body;
    const s = (stats.totals as Body).sessions as Body;
    expect(usage.total).toBe(4);
    expect(Number(s.answered) + Number(s.fallback) + Number(s.failed)).toBe(usage.total);
    const days = (await jsonOf(await stack.request(owner, 'GET', '/v1/usage?category=sessions.voice'))) as Body;
    expect((days.usage as Body[]).length).toBe(30);
    expect((days.usage as Body[]).at(-1)).toEqual({ start: today, count: 4 });

    // The notification sent counts in the account's usage as in its subscription's statistics.
    const [sub] = (await jsonOf(await stack.request(owner, 'GET', '/v1/webhooks'))) as Body[];
    const subStats = async () =>
      ((await jsonOf(await stack.request(owner, 'GET', `/v1/webhooks/${sub!.id}/stats?window=24h`))) as Body)
        .totals as Body;
    await waitFor(async () => (await subStats()).succeeded === 1, { what: 'the attempt recorded', timeoutMs: 20_000 });
    const t = await subStats();
    const sent = (await jsonOf(await stack.request(owner, 'GET', '/v1/usage?category=notifications'))) as Body;
    expect(sent.total).toBe(Number(t.succeeded) + Number(t.retrying) + Number(t.failed));
    expect(sent.total).toBe(1);
  }, 90_000);

  it('when the input is bad, then a 400 names each field, and the 101st usage trigger is a 409', async () => {
    const bad = async (path: string, body?: unknown) => {
      const res = await stack.request(me, body === undefined ? 'GET' : 'POST', path, body);
      expect(res.status).toBe(400);
      return problemFields(res);
    };
    expect(await bad('/v1/usage-triggers', { category: 'sessions', threshold: 0 })).toEqual(['threshold']);
    expect(await bad('/v1/usage-triggers', { category: 'calls', threshold: 5 })).toEqual(['category']);
    expect(await bad('/v1/usage-triggers', { category: 'sessions', threshold: 5, recurring: 'hourly' })).toEqual([
      'recurring',
    ]);
    expect(await bad('/v1/usage?category=calls')).toEqual(['category']);
    expect(await bad('/v1/usage?category=sessions&period=week')).toEqual(['period']);
    expect(await bad('/v1/usage?category=sessions&since=2026-02-30')).toEqual(['since']);
    expect(await bad('/v1/usage?category=sessions&period=month&since=2026-02-03')).toEqual(['since']);

    const account = await stack.createAccount('manyu');
    for (let i = 0; i < 100; i++) await create(account, '/v1/usage-triggers', { category: 'alerts', threshold: i + 1 });
    const res = await stack.request(account, 'POST', '/v1/usage-triggers', { category: 'alerts', threshold: 1 });
    expect(res.status).toBe(409);
    expect(((await res.json()) as Body).code).toBe('limit_exceeded');
  }, 90_000);
});
