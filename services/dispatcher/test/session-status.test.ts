// sessionStatus and alert events through the real stack: a session -> a dispatcher POSTing to a
// loopback application -> its session record -> the webhooks service, which stores it and writes
// its events to its outbox in one transaction -> sessions.status / alerts.raised on the events
// stream -> the dispatcher's fan-out to the subscribers, signed (verified here with the published
// `standardwebhooks` library).
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { randomName, waitFor, type JsonBody } from '../../../test/support';
import { me, newApp, other, rx, signedEvents, stack, startSession, subscribe, useFullStack } from './full-stack';

useFullStack('status');

type Body = Record<string, JsonBody>;
const JSON_TYPE = { 'content-type': 'application/json' };

describe('sessionStatus events', () => {
  it('when a session falls back and is signalled, then its subscriber gets routed, fallback and signal, signed, in sequence order', async () => {
    const app = await newApp(me, 'st', { voiceUrl: '/voice', voiceFallbackUrl: '/fallback' });
    rx.on('/st/voice', () => ({ status: 500, body: 'oops' }));
    rx.on('/st/fallback', () => ({
      status: 200,
      headers: JSON_TYPE,
      body: JSON.stringify({ tropo: [{ say: { value: 'hi' } }] }),
    }));
    const secret = await subscribe(me, 'sessionStatus', '/st/status', app);
    const othersSecret = await subscribe(other, 'sessionStatus', '/st/others');
    const id = await startSession(app);
    await waitFor(() => rx.at('/st/status').length >= 2, { what: 'two status events', timeoutMs: 20_000 });
    await stack.publish('sessions.signal', { sessionId: id, value: 'exit' });
    await waitFor(() => rx.at('/st/status').length >= 3, { what: 'the signal event', timeoutMs: 20_000 });

    const { events, data } = signedEvents('/st/status', secret);
    expect(data.map((d) => [d.sequence, d.status])).toEqual([
      [1, 'routed'],
      [2, 'fallback'],
      [3, 'signal'],
    ]);
    for (const d of data)
      expect(d).toMatchObject({ sessionId: id, applicationId: app, inspector: `${stack.baseUrl}/v1/sessions/${id}` });
    expect(data[0]!.attempt).toMatchObject({ role: 'primary', status: 500 });
    expect(data[1]!.attempt).toMatchObject({ role: 'fallback', status: 200 });
    expect(data[2]).toMatchObject({ signal: 'exit', attempt: null });
    expect(events[0]).toMatchObject({ event: 'sessionStatus', resource: 'all', accountId: me.id });
    // Another account's subscriber gets none of it; a wrong secret does not verify.
    expect(rx.at('/st/others')).toHaveLength(0);
    const r = rx.at('/st/status')[0]!;
    expect(() => new Webhook(othersSecret).verify(r.raw, r.headers as Record<string, string>)).toThrow();
  });

  it('when a session fails, then the failed event carries its reason, and the alert subscriber gets the alert once per minute', async () => {
    const app = await newApp(me, 'bad', { voiceUrl: '/voice', voiceFallbackUrl: '/fallback' });
    rx.on('/bad/voice', () => ({ status: 200, headers: { 'content-type': 'text/html' }, body: '<p>no</p>' }));
    rx.on('/bad/fallback', () => ({ status: 200, headers: { 'content-type': 'text/html' }, body: '<p>no</p>' }));
    await subscribe(me, 'sessionStatus', '/bad/status', app);
    const alertSecret = await subscribe(me, 'alert', '/bad/alerts');
    const first = await startSession(app);
    await waitFor(() => rx.at('/bad/status').length >= 2, { what: 'two status events', timeoutMs: 20_000 });
    const failed = rx
      .at('/bad/status')
      .map((r) => (r.body as Body).data as Body)
      .find((d) => d.status === 'failed');
    expect(failed).toMatchObject({ sessionId: first, sequence: 2, reason: 'not_json' });
    await waitFor(() => rx.at('/bad/alerts').length >= 1, { what: 'the alert event', timeoutMs: 20_000 });
    const [req] = rx.at('/bad/alerts');
    new Webhook(alertSecret).verify(req!.raw, req!.headers as Record<string, string>);
    expect(req!.body).toMatchObject({
      event: 'alert',
      data: { code: 'app.not_json', severity: 'error', sessionId: first, applicationId: app },
    });
    const alertId = String(((req!.body as Body).data as Body).id);
    expect((await stack.request(me, 'GET', `/v1/alerts/${alertId}`)).status).toBe(200);
  });

  it('when the core reports the end, or only a cdr.created names the session, then one ended event follows the others', async () => {
    const app = await newApp(me, 'end', { voiceUrl: '/voice', voiceFallbackUrl: '/fallback' });
    rx.on('/end/voice', () => ({
      status: 200,
      headers: JSON_TYPE,
      body: JSON.stringify({ tropo: [{ hangup: null }] }),
    }));
    await subscribe(me, 'sessionStatus', '/end/status', app);
    const byCore = await startSession(app);
    const byCdr = await startSession(app);
    const of = (id: string) =>
      rx
        .at('/end/status')
        .map((r) => (r.body as Body).data as Body)
        .filter((d) => d.sessionId === id);
    await waitFor(() => of(byCore).length === 2 && of(byCdr).length === 2, {
      what: 'routed and answered',
      timeoutMs: 20_000,
    });
    const at = new Date().toISOString();
    await stack.publish('sessions.ended', { sessionId: byCore, at, reason: 'hangup' });
    await stack.publish('cdr.created', {
      id: randomName('cdr'),
      accountId: me.id,
      applicationId: app,
      resource: 'call',
      timestamp: at,
      data: { sessionId: byCdr, durationSeconds: 12 },
    });
    // The end reported twice (the core's event, then its CDR) is announced once.
    await stack.publish('cdr.created', {
      id: randomName('cdr'),
      accountId: me.id,
      resource: 'call',
      timestamp: at,
      data: { sessionId: byCore },
    });
    await waitFor(() => of(byCore).length === 3 && of(byCdr).length === 3, { what: 'the ends', timeoutMs: 20_000 });
    for (const id of [byCore, byCdr]) {
      const ended = of(id).find((d) => d.status === 'ended');
      expect(ended).toMatchObject({ sequence: 3, at, attempt: null });
    }
    expect(of(byCore).find((d) => d.status === 'ended')!.reason).toBe('hangup');
    await stack.publish('sessions.ended', { sessionId: byCdr, at });
    const marker = await startSession(app);
    await waitFor(() => of(marker).length === 2, { what: 'a later session', timeoutMs: 20_000 });
    expect(of(byCore)).toHaveLength(3);
    expect(of(byCdr)).toHaveLength(3);
  });
});
