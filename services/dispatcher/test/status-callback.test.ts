// A Session API launch with statusCallbackUrl through the real stack: the gateway checks the URL ->
// the applications service puts it on the launched session -> the dispatcher POSTs the session to the
// application and carries the URL in the session's record -> the webhooks service stores it and
// writes the session's status events (for the URL, whoever subscribes) -> the dispatcher POSTs them
// to the URL, signed with the application's secret (verified with the published `standardwebhooks`
// library), and records them in the application's delivery log.
import { describe, expect, it } from 'vitest';
import { waitFor, type JsonBody, type TestAccount } from '../../../test/support';
import { me, other, rx, signedEvents, stack, useFullStack } from './full-stack';

useFullStack('callback');

type Body = Record<string, JsonBody>;
const json = async (res: Response) => (await res.json()) as Body;
const JSON_TYPE = { 'content-type': 'application/json' };

/** An application answering its sessions at /<name>/voice, and a token to launch with. */
async function appWithToken(account: TestAccount, name: string): Promise<{ app: string; token: string }> {
  const res = await stack.request(account, 'POST', '/v1/applications', { name, voiceUrl: rx.url(`/${name}/voice`) });
  expect(res.status).toBe(200);
  const app = String((await json(res)).href)
    .split('/')
    .pop()!;
  rx.on(`/${name}/voice`, () => ({ status: 200, headers: JSON_TYPE, body: '{"tropo":[{"say":{"value":"hi"}}]}' }));
  const t = await stack.request(account, 'POST', `/v1/applications/${app}/addresses`, {
    type: 'token',
    channel: 'voice',
  });
  expect(t.status).toBe(200);
  return {
    app,
    token: String((await json(t)).href)
      .split('/')
      .pop()!,
  };
}

function launch(token: string, fields: Record<string, string>): Promise<Response> {
  return stack.request(undefined, 'POST', `/v1/sessions?token=${token}`, fields, { accept: 'application/json' });
}

describe('statusCallbackUrl', () => {
  it("when a session is launched with one, then its status events go there in sequence order, signed with the application's secret, and are recorded", async () => {
    const { app, token } = await appWithToken(me, 'cb');
    const launched = await launch(token, { statusCallbackUrl: rx.url('/cb/status'), caller: 'x' });
    expect(launched.status, await launched.clone().text()).toBe(200);
    const id = String((await json(launched)).id);
    await waitFor(() => rx.at('/cb/status').length >= 2, { what: 'routed and answered', timeoutMs: 20_000 });
    expect((await stack.request(undefined, 'GET', `/1.0/sessions/${id}/signals?value=exit`)).status).toBe(200);
    await waitFor(() => rx.at('/cb/status').length >= 3, { what: 'the signal event', timeoutMs: 20_000 });
    await stack.publish('sessions.ended', { sessionId: id, at: new Date().toISOString(), reason: 'hangup' });
    await waitFor(() => rx.at('/cb/status').length >= 4, { what: 'the ended event', timeoutMs: 20_000 });

    // The application's session secret signs them (Standard Webhooks), no other.
    const secret = String((await json(await stack.request(me, 'GET', `/v1/applications/${app}/secret`))).secret);
    const { events, data } = signedEvents('/cb/status', secret);
    expect(data.map((d) => [d.sequence, d.status])).toEqual([
      [1, 'routed'],
      [2, 'answered'],
      [3, 'signal'],
      [4, 'ended'],
    ]);
    for (const d of data) expect(d).toMatchObject({ sessionId: id, applicationId: app });
    expect(events[0]).toMatchObject({ event: 'sessionStatus', resource: 'all', accountId: me.id, name: null });
    // The URL is the session's business: the application's session POST does not carry it.
    const [post] = rx.at('/cb/voice');
    expect(((post!.body as Body).session as Body).parameters).toEqual({ caller: 'x' });
    expect(JSON.stringify(events)).not.toContain('statusCallbackUrl');

    // Recorded in the application's delivery log, as sessionStatus deliveries to the URL.
    const log = await waitFor(
      async () => {
        const r = await stack.request(me, 'GET', `/v1/applications/${app}/deliveries?event=sessionStatus`);
        const list = (await r.json()) as Body[];
        return list.length >= 4 ? list : undefined;
      },
      { what: 'the callbacks recorded', timeoutMs: 20_000 },
    );
    for (const d of log)
      expect(d).toMatchObject({ event: 'sessionStatus', targetUrl: rx.url('/cb/status'), outcome: 'succeeded' });
    // Another account sees none of it.
    expect((await stack.request(other, 'GET', `/v1/applications/${app}/deliveries`)).status).toBe(404);
    expect((await stack.request(other, 'GET', `/v1/sessions/${id}`)).status).toBe(404);
  });

  it('when a session is launched without one, then nothing goes anywhere (no subscription either)', async () => {
    const { token } = await appWithToken(me, 'none');
    const marker = await appWithToken(me, 'marker');
    const plain = await launch(token, {});
    expect(plain.status).toBe(200);
    const markerLaunch = await launch(marker.token, { statusCallbackUrl: rx.url('/marker/status') });
    expect(markerLaunch.status).toBe(200);
    // The later launch's events have come: the earlier one's would have by then.
    await waitFor(() => rx.at('/marker/status').length >= 2, { what: "the later session's events", timeoutMs: 20_000 });
    expect(rx.at('/none/status')).toHaveLength(0);
    expect(rx.received.filter((r) => r.path.startsWith('/none') && r.path !== '/none/voice')).toHaveLength(0);
  });

  it('when the URL is a private address, or not a URL, then the launch is a 400 naming statusCallbackUrl and nothing is launched', async () => {
    const { token } = await appWithToken(me, 'priv');
    for (const url of ['http://10.1.2.3/status', 'https://192.168.0.10/x', 'ftp://example.com/x', 'not a url']) {
      const res = await launch(token, { statusCallbackUrl: url });
      expect(res.status, url).toBe(400);
      const problem = await json(res);
      expect(problem.errors).toEqual([expect.objectContaining({ field: 'statusCallbackUrl' })]);
    }
    const marker = await appWithToken(me, 'priv-marker');
    expect((await launch(marker.token, {})).status).toBe(200);
    await waitFor(() => rx.at('/priv-marker/voice').length >= 1, {
      what: 'a later launch delivered',
      timeoutMs: 20_000,
    });
    expect(rx.at('/priv/voice')).toHaveLength(0);
  });
});
