// The session loop (docs/events.md#session-loop): sessions.new -> POST {"session": {...}} to the
// application's voiceUrl or messagingUrl, signed with the application's own secret, then its
// fallback URL, within the session's budget -> the answer on sessions.instructions, or
// sessions.failed with a reason; every attempt recorded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jetstreamManager } from '@nats-io/jetstream';
import {
  waitFor,
  metricSum,
  queryDatabase,
  randomName,
  SESSION_KEYS,
  startReceiver,
  watchSubject,
  type Receiver,
  type RunningDispatcher,
} from '../../../test/support';
import { verifySignature } from '../src/delivery/signing';
import { CONSUMERS } from '../src/streams';
import { eventsHandled, startHarness, useDispatcher, watchSessionOutcomes, type Harness } from './harness';

let h: Harness;
let rx: Receiver;
let outcomes: ReturnType<typeof watchSessionOutcomes>;
let account: string;

beforeAll(async () => {
  h = await startHarness();
  rx = await startReceiver();
  outcomes = watchSessionOutcomes(h.bus);
  account = await h.newAccount();
});
afterAll(async () => {
  outcomes?.stop();
  await h?.stop();
  await rx?.close();
});

const deliveriesOf = async (applicationId: string) =>
  (await h.webhooks.client.listDeliveries({ accountId: account, applicationId, limit: 100 })).deliveries;
const secretOf = async (id: string) =>
  (await h.applications.client.getApplicationSecret({ accountId: account, id })).secret;

/** An application with the given URLs (fallbacks included); returns its id. */
async function newApp(urls: {
  voiceUrl?: string;
  messagingUrl?: string;
  voiceFallbackUrl?: string;
  messagingFallbackUrl?: string;
}): Promise<string> {
  const { application } = await h.applications.client.createApplication({ accountId: account, name: 'app', ...urls });
  return application!.id;
}

/** Publishes a VOICE session for an application; returns the session id. */
async function callIn(applicationId: string): Promise<string> {
  const id = randomName('session');
  await h.publish('sessions.new', {
    applicationId,
    session: { id, from: { id: '+14155550100', channel: 'VOICE' }, to: { id: '+14155550199', channel: 'VOICE' } },
  });
  return id;
}

/** A breaker that does not open within these tests. */
const NO_BREAKER = { DELIVERY_BREAKER_VOLUME_THRESHOLD: '100000' };

const tropo = (value: string) => ({
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ tropo: [{ say: { value } }] }),
});

/** Records of an application once `n` are listed, oldest first. */
const recordsOf = (applicationId: string, n: number) =>
  waitFor(
    async () => {
      const d = await deliveriesOf(applicationId);
      return d.length >= n && [...d].sort((a, b) => a.attempt - b.attempt);
    },
    { what: `${n} delivery records` },
  );

describe('session delivery', () => {
  let dispatcher: RunningDispatcher;
  // A long TTL: a change must be honoured through the change events, not the expiry.
  // Each test's target fails on purpose; the breaker (shared by the receiver's paths) is for another test.
  useDispatcher(
    () => h,
    { LOOKUP_CACHE_TTL: '10m', SESSION_TIMEOUT_MS: '1000', SESSION_DEADLINE_MS: '6000', ...NO_BREAKER },
    (d) => (dispatcher = d),
  );

  it('when a VOICE session arrives, then the voiceUrl gets the full session body, signed, with the account of the application', async () => {
    const app = await newApp({ voiceUrl: rx.url('/voice-1'), messagingUrl: rx.url('/text-1') });
    rx.on('/voice-1', () => tropo('welcome'));
    await h.publish('sessions.new', {
      applicationId: app,
      session: {
        id: '0a7e1c1e-3c8e-4b59-9b8a-0b2f6b1b8d11',
        timestamp: '2025-03-01T12:00:00+02:00',
        userType: 'HUMAN',
        initialText: null,
        callId: 'a1b2c3',
        from: { id: '+14155550100', name: 'Ann', channel: 'VOICE', network: 'PSTN' },
        to: { id: '+14155550199', channel: 'VOICE', network: 'PSTN' },
        headers: { 'x-sbc-call-id': 'abc' },
      },
    });
    const [req] = await waitFor(() => rx.at('/voice-1').length > 0 && rx.at('/voice-1'), { what: 'voice session' });
    expect(req!.body).toEqual({
      session: {
        id: '0a7e1c1e-3c8e-4b59-9b8a-0b2f6b1b8d11',
        accountId: account,
        applicationId: app,
        callId: 'a1b2c3',
        timestamp: '2025-03-01T10:00:00.000Z',
        userType: 'HUMAN',
        initialText: null,
        from: { id: '+14155550100', e164Id: '+14155550100', name: 'Ann', channel: 'VOICE', network: 'PSTN' },
        to: { id: '+14155550199', e164Id: '+14155550199', name: 'unknown', channel: 'VOICE', network: 'PSTN' },
        headers: { 'x-sbc-call-id': 'abc' },
        parameters: {},
      },
    });
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.headers['webhook-id']).toMatch(/^msg_/);
    expect(verifySignature(await secretOf(app), req!.headers, req!.raw)).toBe(true);
    expect(rx.at('/text-1')).toHaveLength(0);

    const records = await waitFor(
      async () => {
        const d = await deliveriesOf(app);
        return d.length > 0 && d;
      },
      { what: 'delivery record' },
    );
    expect(records[0]).toMatchObject({
      kind: 'session',
      applicationId: app,
      messageId: req!.headers['webhook-id'],
      attempt: 1,
      statusCode: 200,
      outcome: 'succeeded',
      targetUrl: rx.url('/voice-1'),
    });
  });

  it('when a TEXT session arrives, then the messagingUrl gets it with initialText kept and every key present', async () => {
    const app = await newApp({ voiceUrl: rx.url('/voice-2'), messagingUrl: rx.url('/text-2') });
    await h.publish('sessions.new', {
      applicationId: app,
      session: {
        accountId: account,
        initialText: 'hello there',
        from: { id: 'jsgoecke', channel: 'TEXT', network: 'JABBER' },
        to: { id: 'bot', channel: 'TEXT', network: 'JABBER' },
      },
    });
    const [req] = await waitFor(() => rx.at('/text-2').length > 0 && rx.at('/text-2'), { what: 'text session' });
    const s = req!.body.session;
    expect(Object.keys(s).sort()).toEqual(SESSION_KEYS);
    expect(s).toMatchObject({
      id: null,
      accountId: account,
      applicationId: app,
      callId: null,
      userType: null,
      initialText: 'hello there',
      headers: {},
      parameters: {},
      from: { id: 'jsgoecke', e164Id: 'jsgoecke', name: 'unknown', channel: 'TEXT', network: 'JABBER' },
      to: { id: 'bot', e164Id: 'bot', name: 'unknown', channel: 'TEXT', network: 'JABBER' },
    });
    expect(s.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Math.abs(Date.parse(s.timestamp) - Date.now())).toBeLessThan(60_000);
    expect(rx.at('/voice-2')).toHaveLength(0);
  });

  it('when the application has no URL for the channel, then the attempt is recorded as failed and sessions.failed says no_url', async () => {
    const app = await newApp({ voiceUrl: rx.url('/voice-3') });
    const id = randomName('session');
    await h.publish('sessions.new', {
      applicationId: app,
      session: { id, initialText: 'hi', from: { id: 'x', channel: 'TEXT' } },
    });
    expect((await outcomes.next(id)).body).toEqual({
      sessionId: id,
      applicationId: app,
      accountId: account,
      channel: 'TEXT',
      reason: 'no_url',
      attempts: [{ url: null, status: 0, error: expect.stringMatching(/^no_url: .*no messagingUrl/), durationMs: 0 }],
    });
    const records = await waitFor(
      async () => {
        const d = await deliveriesOf(app);
        return d.length > 0 && d;
      },
      { what: 'failed record' },
    );
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ kind: 'session', outcome: 'failed', attempt: 1, statusCode: 0 });
    expect(records[0]!.error).toMatch(/no messagingUrl/);
    expect(rx.at('/voice-3')).toHaveLength(0);
  });

  it('when the application URL changes, then the next session goes to the new URL within a second', async () => {
    const app = await newApp({ voiceUrl: rx.url('/voice-old') });
    await h.publish('sessions.new', { applicationId: app, session: { from: { id: '1', channel: 'VOICE' } } });
    await waitFor(() => rx.at('/voice-old').length === 1, { what: 'first session' });
    const changed = await watchSubject(h.bus.nc, 'applications.changed', (b) => b.applicationId === app);
    await h.applications.client.updateApplication({ accountId: account, id: app, voiceUrl: rx.url('/voice-new') });
    await changed.seen();
    await h.publish('sessions.new', { applicationId: app, session: { from: { id: '2', channel: 'VOICE' } } });
    await waitFor(() => rx.at('/voice-new').length === 1, { what: 'session at the new URL' });
    expect(rx.at('/voice-old')).toHaveLength(1);
  });

  it('when the application does not exist, then the session fails with application_not_found and nothing is sent', async () => {
    const before = rx.received.length;
    const failed = () =>
      dispatcher
        .metrics()
        .then((m) => metricSum(m, 'dispatcher_sessions_total', { result: 'failed', reason: 'application_not_found' }));
    const start = await failed();
    const id = randomName('session');
    await h.publish('sessions.new', { applicationId: 'nosuchapp000000000000000', session: { id } });
    expect((await outcomes.next(id)).body).toMatchObject({
      sessionId: id,
      applicationId: 'nosuchapp000000000000000',
      reason: 'application_not_found',
    });
    await waitFor(async () => (await failed()) === start + 1, { what: 'failed session counted' });
    expect(rx.received.length).toBe(before);
  });

  it('when the application answers JSON, then its answer is published once on sessions.instructions', async () => {
    const app = await newApp({ voiceUrl: rx.url('/answer-1') });
    rx.on('/answer-1', () => tropo('hello'));
    const id = await callIn(app);
    const o = await outcomes.next(id);
    expect(o.subject).toBe('sessions.instructions');
    expect(o.body).toEqual({
      sessionId: id,
      applicationId: app,
      accountId: account,
      channel: 'VOICE',
      status: 200,
      contentType: 'application/json',
      body: { tropo: [{ say: { value: 'hello' } }] },
      receivedAt: expect.stringMatching(/Z$/),
    });
    expect(Math.abs(Date.parse(o.body.receivedAt as string) - o.at)).toBeLessThan(2000);
    await eventsHandled(h.bus);
    expect(outcomes.of(id)).toHaveLength(1);
    expect(rx.at('/answer-1')).toHaveLength(1);
  });

  it.each([
    ['a body that is not JSON', 'not_json', { status: 200, body: '<Response><Say>hi</Say></Response>' }],
    ['an empty body', 'empty_body', { status: 200 }],
    ['a body over 64 KiB', 'too_large', { status: 200, body: JSON.stringify({ pad: 'x'.repeat(70_000) }) }],
    ['a 404', 'http_status', { status: 404, body: '{}' }],
  ])(
    'when the application answers with %s, then the session fails at once with %s (no retry)',
    async (_what, reason, answer) => {
      const path = `/bad-${reason}`;
      const app = await newApp({ voiceUrl: rx.url(path) });
      rx.on(path, () => answer);
      const id = await callIn(app);
      const o = await outcomes.next(id);
      expect(o).toMatchObject({
        subject: 'sessions.failed',
        body: { reason, attempts: [{ url: rx.url(path), status: answer.status }] },
      });
      expect(o.body.attempts![0]!.error).toMatch(new RegExp(`^${reason}: `));
      expect(rx.at(path)).toHaveLength(1);
      const records = await recordsOf(app, 1);
      expect(records[0]).toMatchObject({ kind: 'session', attempt: 1, outcome: 'failed', statusCode: answer.status });
    },
  );

  it('when the primary answers 5xx three times, then the fallback is tried after ~0.5 s and ~1.5 s more, and its answer is the instructions', async () => {
    const app = await newApp({ voiceUrl: rx.url('/p5xx'), voiceFallbackUrl: rx.url('/f5xx') });
    rx.on('/p5xx', () => 503);
    rx.on('/f5xx', () => tropo('fallback'));
    const id = await callIn(app);
    const o = await outcomes.next(id);
    expect(o).toMatchObject({
      subject: 'sessions.instructions',
      body: { status: 200, body: { tropo: [{ say: { value: 'fallback' } }] } },
    });
    const [a, b, c] = rx.at('/p5xx');
    expect(rx.at('/p5xx')).toHaveLength(3);
    expect(b!.at - a!.at).toBeGreaterThanOrEqual(350);
    expect(b!.at - a!.at).toBeLessThan(1000);
    expect(c!.at - b!.at).toBeGreaterThanOrEqual(1100);
    expect(c!.at - b!.at).toBeLessThan(2300);
    const [f] = rx.at('/f5xx');
    // right after the third failure (how soon: bench/latency.ts)
    expect(f!.at).toBeGreaterThanOrEqual(c!.at);
    // one webhook-id for every attempt of the session
    expect(new Set([a, b, c, f].map((r) => r!.headers['webhook-id'])).size).toBe(1);
    const records = await recordsOf(app, 4);
    expect(records.map((r) => [r.attempt, r.targetUrl, r.statusCode, r.outcome])).toEqual([
      [1, rx.url('/p5xx'), 503, 'retrying'],
      [2, rx.url('/p5xx'), 503, 'retrying'],
      [3, rx.url('/p5xx'), 503, 'retrying'],
      [4, rx.url('/f5xx'), 200, 'succeeded'],
    ]);
  });

  it('when the primary times out, then the fallback is tried at once, without another attempt to the primary', async () => {
    const app = await newApp({ voiceUrl: rx.url('/p-hang'), voiceFallbackUrl: rx.url('/f-hang') });
    rx.on('/p-hang', () => 'hang');
    rx.on('/f-hang', () => tropo('late'));
    const id = await callIn(app);
    const o = await outcomes.next(id);
    expect(o.subject).toBe('sessions.instructions');
    expect(rx.at('/p-hang')).toHaveLength(1);
    const gap = rx.at('/f-hang')[0]!.at - rx.at('/p-hang')[0]!.at;
    expect(gap).toBeGreaterThanOrEqual(900);
    expect(gap).toBeLessThan(1500);
  });

  it('when the primary and the fallback both fail, then sessions.failed lists every attempt with the last reason', async () => {
    const app = await newApp({ voiceUrl: rx.url('/p-both'), voiceFallbackUrl: rx.url('/f-both') });
    rx.on('/p-both', () => 'hang');
    rx.on('/f-both', () => 500);
    const id = await callIn(app);
    const o = await outcomes.next(id);
    expect(o.subject).toBe('sessions.failed');
    expect(o.body).toMatchObject({ reason: 'http_5xx', channel: 'VOICE' });
    const attempts = o.body.attempts!;
    expect(attempts.map((a) => [a.url, a.status, a.error?.split(':')[0]])).toEqual([
      [rx.url('/p-both'), 0, 'timeout'],
      [rx.url('/f-both'), 500, 'http_5xx'],
      [rx.url('/f-both'), 500, 'http_5xx'],
      [rx.url('/f-both'), 500, 'http_5xx'],
    ]);
  });

  it('when the answer never ends, then the attempt is a timeout and the session does not stay stuck', async () => {
    const app = await newApp({ voiceUrl: rx.url('/endless') });
    rx.on('/endless', () => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: '{"tropo":[',
      endless: true,
    }));
    const started = Date.now();
    const id = await callIn(app);
    const o = await outcomes.next(id);
    expect(o).toMatchObject({ subject: 'sessions.failed', body: { reason: 'timeout', attempts: [{ status: 0 }] } });
    expect(Date.now() - started).toBeLessThan(2500);
    expect(rx.at('/endless')).toHaveLength(1);
    const jsm = await jetstreamManager(h.bus.nc);
    await waitFor(
      async () => (await jsm.consumers.info('SWITCHBOARD_INBOUND', CONSUMERS.events)).num_ack_pending === 0,
      { what: 'session acknowledged' },
    );
  });

  it('when the secret is rotated, then sessions are signed with the new and the previous secret', async () => {
    const app = await newApp({ voiceUrl: rx.url('/rotated') });
    rx.on('/rotated', () => tropo('ok'));
    const old = await secretOf(app);
    // a first session puts the application (and its secret) in the dispatcher's cache
    await outcomes.next(await callIn(app));
    expect(String(rx.at('/rotated')[0]!.headers['webhook-signature']).split(' ')).toHaveLength(1);
    // the rotation's applications.changed clears the cache
    const changed = await watchSubject(h.bus.nc, 'applications.changed', (b) => b.applicationId === app);
    const { secret: fresh } = await h.applications.client.rotateApplicationSecret({ accountId: account, id: app });
    expect(fresh).not.toBe(old);
    await changed.seen();
    await outcomes.next(await callIn(app));
    const req = rx.at('/rotated')[1];
    expect(String(req!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifySignature(fresh, req!.headers, req!.raw)).toBe(true);
    expect(verifySignature(old, req!.headers, req!.raw)).toBe(true);
  });
});

describe('session budget', () => {
  let dispatcher: RunningDispatcher;
  useDispatcher(
    () => h,
    { SESSION_TIMEOUT_MS: '1500', SESSION_DEADLINE_MS: '2000', ...NO_BREAKER },
    (d) => (dispatcher = d),
  );

  it('when the primary and the fallback both hang, then the deadline bounds the whole session', async () => {
    const app = await newApp({ voiceUrl: rx.url('/d-p'), voiceFallbackUrl: rx.url('/d-f') });
    rx.on('/d-p', () => 'hang');
    rx.on('/d-f', () => 'hang');
    const started = Date.now();
    const id = await callIn(app);
    const o = await outcomes.next(id);
    const total = o.at - started;
    expect(o).toMatchObject({ subject: 'sessions.failed', body: { reason: 'timeout' } });
    expect(total).toBeGreaterThanOrEqual(1900);
    expect(total).toBeLessThan(2600);
    // the primary kept half the budget for the fallback (the lookup came out of the primary's half)
    expect(rx.at('/d-f')[0]!.at - rx.at('/d-p')[0]!.at).toBeGreaterThanOrEqual(500);
    expect(rx.at('/d-f')[0]!.at - rx.at('/d-p')[0]!.at).toBeLessThan(1400);
  });

  it('when the application has no session secret, then nothing is sent, signed with another key or not, and the session fails', async () => {
    const app = await newApp({ voiceUrl: rx.url('/no-secret') });
    await queryDatabase(h.db.url, 'delete from applications.application_secrets where application_id = $1', [app]);
    const started = Date.now();
    const id = await callIn(app);
    const o = await outcomes.next(id);
    // the applications service refuses the lookup: the session waits for it within its budget, then fails
    expect(o).toMatchObject({
      subject: 'sessions.failed',
      body: { reason: 'lookup_unavailable', attempts: [{ url: null, status: 0 }] },
    });
    expect(o.at - started).toBeLessThan(2600);
    expect(rx.at('/no-secret')).toHaveLength(0);
  });
});

describe('session and an open breaker', () => {
  let dispatcher: RunningDispatcher;
  let bad: Receiver;
  beforeAll(async () => {
    bad = await startReceiver();
    dispatcher = await h.startDispatcher({
      SESSION_TIMEOUT_MS: '1000',
      SESSION_DEADLINE_MS: '6000',
      DELIVERY_BREAKER_RESET_TIMEOUT: '30s',
    });
  });
  afterAll(async () => {
    await dispatcher?.stop();
    await bad?.close();
  });

  it('when the primary host is known bad (breaker open), then the fallback is tried at once', async () => {
    const app = await newApp({ voiceUrl: bad.url('/down'), voiceFallbackUrl: rx.url('/b-f') });
    bad.on('/down', () => 502);
    rx.on('/b-f', () => tropo('spare'));
    // two sessions: six 502s from the primary open its breaker
    for (let i = 0; i < 2; i++) await outcomes.next(await callIn(app));
    await waitFor(async () => metricSum(await dispatcher.metrics(), 'dispatcher_breakers', { state: 'open' }) >= 1, {
      what: 'breaker open',
    });
    const before = bad.at('/down').length;
    // the primary is not tried (how soon the answer comes: bench/latency.ts)
    const id = await callIn(app);
    const o = await outcomes.next(id);
    expect(o.subject).toBe('sessions.instructions');
    expect(bad.at('/down')).toHaveLength(before);
  });
});

describe('session to a refused address', () => {
  let dispatcher: RunningDispatcher;
  useDispatcher(
    () => h,
    { DELIVERY_ALLOWED_CIDRS: '' },
    (d) => (dispatcher = d),
  );

  it('when the URL is a loopback address the dispatcher does not allow, then the session fails with ssrf_refused and nothing is sent', async () => {
    const app = await newApp({ voiceUrl: rx.url('/private') });
    const id = await callIn(app);
    const o = await outcomes.next(id);
    expect(o).toMatchObject({
      subject: 'sessions.failed',
      body: { reason: 'ssrf_refused', attempts: [{ url: rx.url('/private'), status: 0 }] },
    });
    expect(rx.at('/private')).toHaveLength(0);
  });
});
