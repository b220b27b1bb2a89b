// The session inspector through the real stack: sessions.new (or a Session API launch) -> a
// dispatcher POSTing to a loopback application -> its session record on JetStream -> the webhooks
// service (Postgres, daily partitions) -> GET /v1/applications/:id/sessions and GET /v1/sessions/:id
// at the gateway. Each outcome shows what the application answered.
import { beforeAll, describe, expect, it } from 'vitest';
import { addNumbers } from '@switchboard/applications/numbers';
import { ORLANDO, jsonOf, waitFor, type JsonBody, type TestAccount } from '../../../test/support';
import { me, newApp, other, rx, stack, startSession, useFullStack } from './full-stack';
import { keepSessionsOnce } from '../../webhooks/src/sessions/keep-sessions';
import { sessionBuckets } from '../../webhooks/src/sessions/repository';

useFullStack('insp');
beforeAll(async () => {
  await addNumbers(stack.applications.app.orm.em.fork(), ['+14075550170', '+14075550171'], ORLANDO);
});

type Session = Record<string, JsonBody>;
const JSON_TYPE = { 'content-type': 'application/json' };

/** GET /v1/sessions/:id, waited for until the session is stored. */
async function sessionOf(id: string, account: TestAccount = me): Promise<Session> {
  const res = await waitFor(
    async () => {
      const r = await stack.request(account, 'GET', `/v1/sessions/${id}`);
      return r.status === 200 ? r : undefined;
    },
    { what: `session ${id}`, timeoutMs: 20_000 },
  );
  return (await jsonOf(res)) as Session;
}

describe('one session', () => {
  it('when the primary URL answers, then the session reads answered, with the answer as its instructions and in its attempt', async () => {
    const app = await newApp(me, 'ok', { voiceUrl: '/voice' });
    const answer = JSON.stringify({ tropo: [{ say: { value: 'hello' } }] });
    rx.on('/ok/voice', () => ({ status: 200, headers: JSON_TYPE, body: answer }));
    const id = await startSession(app, { from: '+14155550111' });
    const s = await sessionOf(id);
    expect(s).toMatchObject({
      href: `${stack.baseUrl}/v1/sessions/${id}`,
      id,
      applicationId: app,
      channel: 'VOICE',
      from: '+14155550111',
      to: '+14075550199',
      routedBy: { type: 'application', value: app },
      outcome: 'answered',
      failure: null,
      signals: [],
      instructions: { bytes: Buffer.byteLength(answer), excerpt: { text: answer, truncated: false } },
    });
    expect(s.attempts).toEqual([
      {
        at: expect.any(String),
        url: rx.url('/ok/voice'),
        role: 'primary',
        status: 200,
        durationMs: expect.any(Number),
        error: null,
        responseContentType: 'application/json',
        responseExcerpt: { text: answer, truncated: false },
      },
    ]);
  });

  it('when the primary URL fails and the fallback answers, then the session reads fallback, with both answers', async () => {
    const app = await newApp(me, 'fb', { voiceUrl: '/voice', voiceFallbackUrl: '/fallback' });
    rx.on('/fb/voice', () => ({ status: 404, headers: { 'content-type': 'text/plain' }, body: 'no such page' }));
    const answer = JSON.stringify({ tropo: [{ say: { value: 'from the fallback' } }] });
    rx.on('/fb/fallback', () => ({ status: 200, headers: JSON_TYPE, body: answer }));
    const s = await sessionOf(await startSession(app));
    expect(s.outcome).toBe('fallback');
    expect(s.attempts).toMatchObject([
      {
        role: 'primary',
        status: 404,
        error: expect.stringMatching(/^http_status: HTTP 404/),
        responseContentType: 'text/plain',
        responseExcerpt: { text: 'no such page', truncated: false },
      },
      { role: 'fallback', status: 200, error: null, responseExcerpt: { text: answer, truncated: false } },
    ]);
    expect(s.instructions).toMatchObject({ excerpt: { text: answer } });
    // The application's delivery records show each answer too, and the session body both attempts sent.
    const sent = rx.at('/fb/voice')[0]!;
    const records = await waitFor(
      async () => {
        const list = (await jsonOf(await stack.request(me, 'GET', `/v1/applications/${app}/deliveries`))) as Session[];
        return list.length === 2 ? list : undefined;
      },
      { what: 'two session attempt records' },
    );
    const read = async (r: Session) =>
      (await jsonOf(await stack.request(me, 'GET', `/v1/applications/${app}/deliveries/${String(r.id)}`))) as Session;
    const [primary, fallback] = (await Promise.all(records.map(read))).sort(
      (a, b) => Number(a.attempt) - Number(b.attempt),
    );
    const request = { body: sent.raw, bytes: sent.bytes.length, truncated: false };
    expect(primary).toMatchObject({
      attempt: 1,
      request,
      response: { contentType: 'text/plain', excerpt: 'no such page', truncated: false },
    });
    expect(fallback).toMatchObject({
      attempt: 2,
      request,
      response: { contentType: 'application/json', excerpt: answer, truncated: false },
    });
  });

  it('when no URL gives instructions, then the session reads failed with its reason, and shows what the application answered', async () => {
    const app = await newApp(me, 'bad', { voiceUrl: '/voice' });
    rx.on('/bad/voice', () => ({ status: 200, headers: { 'content-type': 'text/html' }, body: '<h1>Oops</h1>' }));
    const s = await sessionOf(await startSession(app));
    expect(s).toMatchObject({ outcome: 'failed', failure: { reason: 'not_json' }, instructions: null });
    expect(s.attempts).toMatchObject([
      {
        role: 'primary',
        status: 200,
        error: expect.stringMatching(/^not_json/),
        responseContentType: 'text/html',
        responseExcerpt: { text: '<h1>Oops</h1>', truncated: false },
      },
    ]);
  });

  it('when the answer is longer than 4 KiB, then its excerpt is its first 4 KiB of whole characters, marked truncated', async () => {
    const app = await newApp(me, 'long', { voiceUrl: '/voice' });
    // Three-byte characters: 4096 is not a multiple of 3, so a cut at 4096 bytes would split one.
    const answer = JSON.stringify({ tropo: [{ say: { value: '€'.repeat(3000) } }] });
    rx.on('/long/voice', () => ({ status: 200, headers: JSON_TYPE, body: answer }));
    const s = await sessionOf(await startSession(app));
    expect(s.outcome).toBe('answered');
    const excerpt = (s.attempts as Session[])[0]!.responseExcerpt as { text: string; truncated: boolean };
    expect(excerpt.truncated).toBe(true);
    expect(Buffer.byteLength(excerpt.text)).toBeLessThanOrEqual(4096);
    expect(Buffer.byteLength(excerpt.text)).toBeGreaterThan(4090);
    expect(answer.startsWith(excerpt.text)).toBe(true);
    expect(excerpt.text).not.toContain('\ufffd');
    expect(s.instructions).toMatchObject({ bytes: Buffer.byteLength(answer), excerpt: { truncated: true } });
  });

  it('when a session is dialled at an address nobody owns, then it belongs to no application: its account (when the event names one) reads it by id, failed with unknown_address; nobody else does', async () => {
    const mine = await startSession(undefined, { to: '+14075550177', accountId: me.id });
    const s = await sessionOf(mine);
    expect(s).toMatchObject({
      applicationId: null,
      routedBy: { type: 'address', value: '+14075550177' },
      outcome: 'failed',
      failure: { reason: 'unknown_address' },
      instructions: null,
    });
    expect(s.attempts).toMatchObject([{ url: null, status: null, error: expect.stringMatching(/^unknown_address/) }]);
    expect((await stack.request(other, 'GET', `/v1/sessions/${mine}`)).status).toBe(404);
    // Without an account in the event, nobody can be shown it: every account reads 404.
    const nobodys = await startSession(undefined, { to: '+14075550178' });
    await sessionOf(await startSession(undefined, { to: '+14075550179', accountId: me.id }));
    expect((await stack.request(me, 'GET', `/v1/sessions/${nobodys}`)).status).toBe(404);
  });

  it('when a session is routed by a claimed number, then it is listed under the owning application, routed by address', async () => {
    const app = await newApp(me, 'num', { voiceUrl: '/voice' });
    rx.on('/num/voice', () => ({ status: 200, headers: JSON_TYPE, body: '{"tropo":[]}' }));
    const claimed = await stack.request(me, 'POST', `/v1/applications/${app}/addresses`, {
      type: 'number',
      prefix: '1407',
    });
    const number = decodeURIComponent(
      String((await jsonOf(claimed)).href)
        .split('/')
        .pop()!,
    );
    const id = await startSession(undefined, { to: number });
    expect(await sessionOf(id)).toMatchObject({
      applicationId: app,
      routedBy: { type: 'address', value: number },
      outcome: 'answered',
    });
    const list = (await jsonOf(await stack.request(me, 'GET', `/v1/applications/${app}/sessions`))) as Session[];
    expect(list.map((x) => x.id)).toEqual([id]);
  });

  it('when a session is launched with a token and signalled, then it reads routed by token with the signal queued', async () => {
    const app = await newApp(me, 'launch', { voiceUrl: '/voice' });
    rx.on('/launch/voice', () => ({
      status: 200,
      headers: JSON_TYPE,
      body: '{"tropo":[{"wait":{"milliseconds":1}}]}',
    }));
    const res = await stack.request(me, 'POST', `/v1/applications/${app}/addresses`, {
      type: 'token',
      channel: 'voice',
    });
    const token = String((await jsonOf(res)).href)
      .split('/')
      .pop()!;
    const launched = await stack.request(undefined, 'POST', `/v1/sessions?token=${token}`, undefined, {
      accept: 'application/json',
    });
    expect(launched.status).toBe(200);
    const id = String((await jsonOf(launched)).id);
    const signalled = await stack.request(undefined, 'GET', `/1.0/sessions/${id}/signals?value=exit`);
    expect(await jsonOf(signalled)).toEqual({ status: 'QUEUED' });
    const s = await waitFor(
      async () => {
        const x = await sessionOf(id);
        return (x.signals as Session[]).length > 0 ? x : undefined;
      },
      { what: 'the signal in the session' },
    );
    expect(s).toMatchObject({
      applicationId: app,
      routedBy: { type: 'token', value: `${token.slice(0, 8)}…` },
      outcome: 'answered',
      signals: [{ at: expect.any(String), value: 'exit', status: 'queued' }],
    });
    const list = (await jsonOf(await stack.request(me, 'GET', `/v1/applications/${app}/sessions`))) as Session[];
    expect(list).toMatchObject([{ id, routedBy: { type: 'token' }, attemptCount: 1 }]);
  });

  it("when another account asks for a session or an application's sessions, then it is 404", async () => {
    const app = await newApp(me, 'mine', { voiceUrl: '/voice' });
    rx.on('/mine/voice', () => ({ status: 200, headers: JSON_TYPE, body: '{"tropo":[]}' }));
    const id = await startSession(app);
    await sessionOf(id);
    const one = await stack.request(other, 'GET', `/v1/sessions/${id}`);
    expect(one.status).toBe(404);
    expect(one.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect((await stack.request(other, 'GET', `/v1/applications/${app}/sessions`)).status).toBe(404);
    expect((await stack.request(undefined, 'GET', `/v1/sessions/${id}`)).status).toBe(401);
  });
});

describe('the list of an application', () => {
  let app: string;
  const ids: Record<string, string> = {};
  let before: string;
  beforeAll(async () => {
    app = await newApp(me, 'list', { voiceUrl: '/voice', voiceFallbackUrl: '/fallback', messagingUrl: '/text' });
    // The caller decides what the application does: +1...01 answered, 02 fallback, 03 failed.
    rx.on('/list/voice', (r) =>
      String(r.body?.session?.from?.id).endsWith('01')
        ? { status: 200, headers: JSON_TYPE, body: '{"tropo":[]}' }
        : { status: 404, body: 'gone' },
    );
    rx.on('/list/fallback', (r) =>
      String(r.body?.session?.from?.id).endsWith('02')
        ? { status: 200, headers: JSON_TYPE, body: '{"tropo":[]}' }
        : { status: 404, body: 'gone too' },
    );
    rx.on('/list/text', () => ({ status: 200, headers: JSON_TYPE, body: '{"tropo":[]}' }));
    ids.answered = await startSession(app, { from: '+14155550201' });
    await sessionOf(ids.answered);
    before = new Date().toISOString();
    ids.fallback = await startSession(app, { from: '+14155550202' });
    ids.failed = await startSession(app, { from: '+14155550203' });
    ids.text = await startSession(app, { from: '+14155550201', channel: 'TEXT' });
    for (const id of Object.values(ids)) await sessionOf(id);
  }, 60_000);

  const list = async (query: string) => {
    const res = await stack.request(me, 'GET', `/v1/applications/${app}/sessions${query}`);
    expect(res.status).toBe(200);
    return ((await jsonOf(res)) as Session[]).map((s) => s.id);
  };

  it('when listed without filters, then every session shows, newest first, summarised', async () => {
    const all = await list('');
    expect(new Set(all)).toEqual(new Set(Object.values(ids)));
    expect(all[all.length - 1]).toBe(ids.answered);
    const res = await stack.request(me, 'GET', `/v1/applications/${app}/sessions`);
    const first = ((await jsonOf(res)) as Session[])[0]!;
    expect(first).not.toHaveProperty('attempts');
    expect(first).toHaveProperty('attemptCount');
  });

  it('when filtered by outcome, channel, caller, since and until, then only the matching sessions show', async () => {
    expect(await list('?outcome=answered')).toEqual(expect.arrayContaining([ids.answered, ids.text]));
    expect((await list('?outcome=answered')).length).toBe(2);
    expect(await list('?outcome=fallback')).toEqual([ids.fallback]);
    expect(await list('?outcome=failed')).toEqual([ids.failed]);
    expect(await list('?channel=TEXT')).toEqual([ids.text]);
    expect(await list('?channel=VOICE&from=%2B14155550201')).toEqual([ids.answered]);
    expect(await list(`?until=${encodeURIComponent(before)}`)).toEqual([ids.answered]);
    expect(new Set(await list(`?since=${encodeURIComponent(before)}`))).toEqual(
      new Set([ids.fallback, ids.failed, ids.text]),
    );
  });

  it('when paged, then each page links to the next and together they hold every session once', async () => {
    const first = await stack.request(me, 'GET', `/v1/applications/${app}/sessions?limit=2`);
    expect(first.headers.get('link')).toMatch(/rel="next"/);
    const all = await stack.listAll(me, `/v1/applications/${app}/sessions?limit=1`);
    expect(all.map((s) => s.id)).toEqual(await list(''));
  });

  it('when a filter is not one the API knows, then it is a 400 problem naming it', async () => {
    for (const [query, field] of [
      ['?outcome=maybe', 'outcome'],
      ['?channel=FAX', 'channel'],
      ['?since=yesterday', 'since'],
      ['?until=2026-13-45T99:00:00Z', 'until'],
      ['?since=2026-01-05T10:00:00', 'since'],
      ['?cursor=nope', 'cursor'],
    ] as const) {
      const res = await stack.request(me, 'GET', `/v1/applications/${app}/sessions${query}`);
      expect(res.status, query).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(((await jsonOf(res)) as { errors: { field: string }[] }).errors.map((e) => e.field)).toContain(field);
    }
  });
});

describe('keeping sessions', () => {
  const webhooksDeps = () => ({ orm: stack.webhooks.app.orm, schema: 'webhooks' });

  it('when sessions are stored, then the per-minute rollups of their application count exactly the sessions by outcome', async () => {
    const app = await newApp(me, 'counted', { voiceUrl: '/voice' });
    rx.on('/counted/voice', (r) =>
      String(r.body?.session?.from?.id).endsWith('9')
        ? { status: 503, body: 'down' }
        : { status: 200, headers: JSON_TYPE, body: '{"tropo":[]}' },
    );
    const sent = ['+14155550301', '+14155550302', '+14155550309', '+14155550303'];
    for (const from of sent) await sessionOf(await startSession(app, { from }));
    const buckets = await sessionBuckets(
      stack.webhooks.app.orm.em,
      'webhooks',
      app,
      new Date(Date.now() - 3_600_000),
      new Date(Date.now() + 60_000),
      3600,
    );
    const total = buckets.reduce(
      (t, b) => ({ answered: t.answered + b.answered, fallback: t.fallback + b.fallback, failed: t.failed + b.failed }),
      { answered: 0, fallback: 0, failed: 0 },
    );
    const listed = (await jsonOf(await stack.request(me, 'GET', `/v1/applications/${app}/sessions`))) as Session[];
    const count = (o: string) => listed.filter((s) => s.outcome === o).length;
    expect(total).toEqual({ answered: count('answered'), fallback: count('fallback'), failed: count('failed') });
    expect(total).toEqual({ answered: 3, fallback: 0, failed: 1 });
    // The application's statistics show the same sessions, per bucket and in the totals.
    const stats = (await jsonOf(
      await stack.request(me, 'GET', `/v1/applications/${app}/stats?window=1h&bucket=1m`),
    )) as {
      buckets: { sessions: typeof total }[];
      totals: { sessions: typeof total };
    };
    expect(stats.totals.sessions).toEqual(total);
    const summed = stats.buckets.reduce(
      (t, b) => ({
        answered: t.answered + b.sessions.answered,
        fallback: t.fallback + b.sessions.fallback,
        failed: t.failed + b.sessions.failed,
      }),
      { answered: 0, fallback: 0, failed: 0 },
    );
    expect(summed).toEqual(total);
  });

  it('when an application is deleted, then its sessions are gone', async () => {
    const app = await newApp(me, 'doomed', { voiceUrl: '/voice' });
    rx.on('/doomed/voice', () => ({ status: 200, headers: JSON_TYPE, body: '{"tropo":[]}' }));
    const id = await startSession(app);
    await sessionOf(id);
    expect((await stack.request(me, 'GET', `/v1/applications/${app}`, undefined)).status).toBe(200);
    expect((await stack.request(me, 'DELETE', `/v1/applications/${app}`)).status).toBeLessThan(300);
    await waitFor(async () => (await stack.request(me, 'GET', `/v1/sessions/${id}`)).status === 404, {
      what: 'the session gone',
    });
  });

  it('when the webhooks service is down while a session runs, then the session goes on, and its record is stored once the service is back', async () => {
    const app = await newApp(me, 'outage', { voiceUrl: '/voice' });
    rx.on('/outage/voice', () => ({ status: 200, headers: JSON_TYPE, body: '{"tropo":[{"hangup":null}]}' }));
    await stack.webhooks.stop();
    try {
      const id = await startSession(app);
      await waitFor(() => rx.received.find((r) => r.body?.session?.id === id), { what: 'the session POST' });
      expect((await stack.request(me, 'GET', `/v1/sessions/${id}`)).status).toBe(503);
      await stack.webhooks.start();
      expect(await sessionOf(id)).toMatchObject({
        outcome: 'answered',
        instructions: { excerpt: { text: '{"tropo":[{"hangup":null}]}' } },
      });
    } finally {
      await stack.webhooks.start();
    }
  });

  it('when the retention has passed over a day, then its partition is dropped whole and its sessions read 404', async () => {
    const app = await newApp(me, 'old', { voiceUrl: '/voice' });
    rx.on('/old/voice', () => ({ status: 200, headers: JSON_TYPE, body: '{"tropo":[]}' }));
    const id = await startSession(app);
    await sessionOf(id);
    const today = `sessions_p${new Date().toISOString().slice(0, 10).replaceAll('-', '')}`;
    // Seven days later, today is still kept; eight days later its whole day is past the retention.
    expect(await keepSessionsOnce(webhooksDeps(), 7, new Date(Date.now() + 7 * 86_400_000 - 60_000))).not.toContain(
      today,
    );
    expect((await stack.request(me, 'GET', `/v1/sessions/${id}`)).status).toBe(200);
    expect(await keepSessionsOnce(webhooksDeps(), 7, new Date(Date.now() + 8 * 86_400_000))).toContain(today);
    expect((await stack.request(me, 'GET', `/v1/sessions/${id}`)).status).toBe(404);
    // A session arriving afterwards still finds (or makes) its day's partition.
    const later = await startSession(app);
    expect(await sessionOf(later)).toMatchObject({ outcome: 'answered' });
  });
});
