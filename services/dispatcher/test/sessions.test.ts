// Session delivery (docs/events.md#session-post, docs/events.md#signatures): sessions.new -> POST {"session": {...}} to the
// application's voiceUrl or messagingUrl, signed, with every attempt recorded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor, metricSum, sleep, startReceiver, type Receiver, type RunningDispatcher } from '../../../test/support';
import { verifySignature } from '../src/delivery/signing';
import { SESSION_SECRET, startHarness, type Harness } from './harness';

let h: Harness;
let rx: Receiver;
let dispatcher: RunningDispatcher;
let account: string;

beforeAll(async () => {
  h = await startHarness();
  rx = await startReceiver();
  // A long TTL: a change must be honoured through the change events, not the expiry.
  dispatcher = await h.startDispatcher({ LOOKUP_CACHE_TTL: '10m' });
  account = await h.newAccount();
});
afterAll(async () => {
  await h?.stop();
  await rx?.close();
});

const deliveriesOf = async (applicationId: string) => (await h.webhooks.client.listDeliveries({ accountId: account, applicationId, limit: 100 })).deliveries;

describe('session delivery', () => {
  it('when a VOICE session arrives, then the voiceUrl gets the full session body, signed, with the account of the application', async () => {
    const app = await h.newApplication(account, { voiceUrl: rx.url('/voice-1'), messagingUrl: rx.url('/text-1') });
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
    expect(verifySignature(SESSION_SECRET, req!.headers, req!.raw)).toBe(true);
    expect(rx.at('/text-1')).toHaveLength(0);

    const records = await waitFor(async () => {
      const d = await deliveriesOf(app);
      return d.length > 0 && d;
    }, { what: 'delivery record' });
    expect(records[0]).toMatchObject({ kind: 'session', applicationId: app, messageId: req!.headers['webhook-id'], attempt: 1, statusCode: 200, outcome: 'succeeded', targetUrl: rx.url('/voice-1') });
  });

  it('when a TEXT session arrives, then the messagingUrl gets it with initialText kept and every key present', async () => {
    const app = await h.newApplication(account, { voiceUrl: rx.url('/voice-2'), messagingUrl: rx.url('/text-2') });
    await h.publish('sessions.new', {
      applicationId: app,
      session: { accountId: account, initialText: 'hello there', from: { id: 'jsgoecke', channel: 'TEXT', network: 'JABBER' }, to: { id: 'bot', channel: 'TEXT', network: 'JABBER' } },
    });
    const [req] = await waitFor(() => rx.at('/text-2').length > 0 && rx.at('/text-2'), { what: 'text session' });
    const s = req!.body.session;
    expect(Object.keys(s).sort()).toEqual(['accountId', 'applicationId', 'callId', 'from', 'headers', 'id', 'initialText', 'parameters', 'timestamp', 'to', 'userType']);
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

  it('when the application has no URL for the channel, then the attempt is recorded as failed with the reason', async () => {
    const app = await h.newApplication(account, { voiceUrl: rx.url('/voice-3') });
    await h.publish('sessions.new', { applicationId: app, session: { initialText: 'hi', from: { id: 'x', channel: 'TEXT' } } });
    const records = await waitFor(async () => {
      const d = await deliveriesOf(app);
      return d.length > 0 && d;
    }, { what: 'failed record' });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ kind: 'session', outcome: 'failed', attempt: 1, statusCode: 0 });
    expect(records[0]!.error).toMatch(/no messagingUrl/);
    expect(rx.at('/voice-3')).toHaveLength(0);
  });

  it('when the application URL changes, then the next session goes to the new URL within a second', async () => {
    const app = await h.newApplication(account, { voiceUrl: rx.url('/voice-old') });
    await h.publish('sessions.new', { applicationId: app, session: { from: { id: '1', channel: 'VOICE' } } });
    await waitFor(() => rx.at('/voice-old').length === 1, { what: 'first session' });
    await h.applications.client.updateApplication({ accountId: account, id: app, voiceUrl: rx.url('/voice-new') });
    await sleep(1000);
    await h.publish('sessions.new', { applicationId: app, session: { from: { id: '2', channel: 'VOICE' } } });
    await waitFor(() => rx.at('/voice-new').length === 1, { what: 'session at the new URL' });
    expect(rx.at('/voice-old')).toHaveLength(1);
  });

  it('when the application does not exist, then the attempt counts as failed and nothing is sent', async () => {
    const before = rx.received.length;
    const failed = () => dispatcher.metrics().then((m) => metricSum(m, 'dispatcher_deliveries_total', { kind: 'session', outcome: 'failed' }));
    const start = await failed();
    await h.publish('sessions.new', { applicationId: 'nosuchapp000000000000000', session: {} });
    await waitFor(async () => (await failed()) === start + 1, { what: 'failed session counted' });
    expect(rx.received.length).toBe(before);
  });
});
