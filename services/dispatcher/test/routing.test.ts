// Routing by address (docs/events.md#routing-by-address): a sessions.new without applicationId goes
// to the application that owns session.to.id, claimed, moved and released through the public API;
// the dispatcher's cache of owners follows addresses.changed, and an address nobody owns fails the
// session with unknown_address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addNumbers } from '@switchboard/applications/numbers';
import {
  ORLANDO,
  freePort,
  metricSum,
  randomName,
  startDeliveryServices,
  startReceiver,
  waitFor,
  watchSubject,
  type Receiver,
  type RunningDispatcher,
  type Services,
  type TestAccount,
  type JsonBody,
} from '../../../test/support';
import { verifySignature } from '../src/delivery/signing';
import { eventsHandled, TEST_DISPATCHER_ENV, watchSessionOutcomes } from './harness';

let stack: Services<{ webhooks: true; gateway: true }>;
let rx: Receiver;
let outcomes: ReturnType<typeof watchSessionOutcomes>;
let alice: TestAccount;

beforeAll(async () => {
  stack = await startDeliveryServices({ gateway: true, dispatcherEnv: TEST_DISPATCHER_ENV });
  rx = await startReceiver();
  outcomes = watchSessionOutcomes(stack.bus);
  alice = await stack.createAccount('alice');
  const numbers = Array.from({ length: 30 }, (_, i) => `+${14075550100 + i}`);
  await addNumbers(stack.applications.app.orm.em.fork(), numbers, ORLANDO);
}, 120_000);
afterAll(async () => {
  outcomes?.stop();
  await stack?.stop();
  await rx?.close();
});

const json = async (res: Response) => (await res.json()) as JsonBody;

/** An application of alice's with URLs on the receiver under `name`; returns its id. */
async function newApp(name: string): Promise<string> {
  const res = await stack.request(alice, 'POST', '/v1/applications', {
    name,
    voiceUrl: rx.url(`/${name}/voice`),
    messagingUrl: rx.url(`/${name}/text`),
  });
  expect(res.status).toBe(200);
  const id = ((await json(res)).href as string).split('/').pop()!;
  rx.on(`/${name}/voice`, () => ({
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ tropo: [{ say: { value: name } }] }),
  }));
  rx.on(`/${name}/text`, () => ({
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ tropo: [{ say: { value: `${name} text` } }] }),
  }));
  return id;
}

/** Claims an address for the application through the API; returns the address (the last segment of its href). */
async function claim(app: string, body: Record<string, unknown>): Promise<string> {
  const res = await stack.request(alice, 'POST', `/v1/applications/${app}/addresses`, body);
  expect(res.status, JSON.stringify(body)).toBe(200);
  return decodeURIComponent(((await json(res)).href as string).split('/').pop()!);
}

/** Publishes a session without applicationId, dialled at `to`; returns its id. */
/**
 * Moves (POST) or releases (DELETE) one of alice's numbers through the API, under the application
 * that owns it after the move (before the release), and waits for the addresses.changed that
 * reports it; the API's response.
 */
async function changeOwner(
  method: 'POST' | 'DELETE',
  number: string,
  change: { applicationId: string | null; previousApplicationId: string },
): Promise<Response> {
  const event = await watchSubject(
    stack.bus.nc,
    'addresses.changed',
    (b) => b.applicationId === change.applicationId && b.previousApplicationId === change.previousApplicationId,
  );
  const under = change.applicationId ?? change.previousApplicationId;
  const res = await stack.request(
    alice,
    method,
    `/v1/applications/${under}/addresses/number/${encodeURIComponent(number)}`,
  );
  await event.seen();
  return res;
}

async function dial(to: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<string> {
  const id = randomName('session');
  await stack.publish('sessions.new', {
    session: { id, from: { id: '+14155550100', channel: 'VOICE', network: 'PSTN' }, to, ...extra },
  });
  return id;
}

/** The session body POSTed for a session id, waited for. */
const postedSession = (sessionId: string) =>
  waitFor(() => rx.received.find((r) => r.body?.session?.id === sessionId), { what: `POST of session ${sessionId}` });

const deliveriesOf = async (app: string) =>
  (await json(await stack.request(alice, 'GET', `/v1/applications/${app}/deliveries`))) as Record<string, unknown>[];

describe('routing by address', () => {
  let dispatcher: RunningDispatcher;
  const unknownCount = async () =>
    metricSum(await dispatcher.metrics(), 'dispatcher_sessions_total', { result: 'failed', reason: 'unknown_address' });
  // A long TTL: every change must reach the cache through addresses.changed, not the expiry.
  beforeAll(async () => void (dispatcher = await stack.startDispatcher({ LOOKUP_CACHE_TTL: '10m' })));
  afterAll(() => dispatcher?.stop());

  it('when a session without applicationId is dialled at a claimed number, then the owner gets it with accountId and applicationId filled in, recorded under the application', async () => {
    const app = await newApp('num');
    const number = await claim(app, { type: 'number', prefix: '1407' });
    const id = await dial({ id: number, channel: 'VOICE', network: 'PSTN' });
    const req = await postedSession(id);
    expect(req.path).toBe('/num/voice');
    expect(req.body.session).toMatchObject({
      id,
      accountId: alice.id,
      applicationId: app,
      to: { id: number, network: 'PSTN' },
    });
    const { secret } = await json(await stack.request(alice, 'GET', `/v1/applications/${app}/secret`));
    expect(verifySignature(secret, req.headers, req.raw)).toBe(true);
    expect((await outcomes.next(id)).body).toMatchObject({
      sessionId: id,
      applicationId: app,
      accountId: alice.id,
      status: 200,
    });
    const records = await waitFor(
      async () => {
        const d = await deliveriesOf(app);
        return d.length > 0 && d;
      },
      { what: 'delivery record' },
    );
    expect(records).toEqual([
      expect.objectContaining({
        kind: 'session',
        applicationId: app,
        messageId: req.headers['webhook-id'],
        outcome: 'succeeded',
        targetUrl: rx.url('/num/voice'),
      }),
    ]);
  });

  it('when a text arrives at a claimed number on the SMS network, then it goes to the messagingUrl', async () => {
    const app = await newApp('sms');
    const number = await claim(app, { type: 'number', prefix: '1407' });
    const id = randomName('session');
    await stack.publish('sessions.new', {
      session: {
        id,
        initialText: 'hi',
        from: { id: '+14155550100', channel: 'TEXT', network: 'SMS' },
        to: { id: number, channel: 'TEXT', network: 'SMS' },
      },
    });
    const req = await postedSession(id);
    expect(req.path).toBe('/sms/text');
    expect(req.body.session).toMatchObject({ accountId: alice.id, applicationId: app, initialText: 'hi' });
  });

  it('when a session is dialled at a claimed SIP address, written with another case, brackets or without its scheme, then the owner gets it', async () => {
    const app = await newApp('sip');
    const sip = await claim(app, { type: 'sip' });
    expect(sip).toMatch(/^sip:[0-9a-f]+@/);
    const [user, host] = sip.slice(4).split('@') as [string, string];
    for (const to of [sip, `"Desk" <sip:${user}@${host.toUpperCase()}:5060;transport=tcp>`, `${user}@${host}`]) {
      const id = await dial({ id: to, channel: 'VOICE', network: 'SIP' });
      const req = await postedSession(id);
      expect(req.path, to).toBe('/sip/voice');
      expect(req.body.session, to).toMatchObject({ accountId: alice.id, applicationId: app });
    }
  });

  it('when a number is dialled without "+" or with spaces and dashes, then it routes to its owner', async () => {
    const app = await newApp('forms');
    const number = await claim(app, { type: 'number', prefix: '1407' });
    const digits = number.slice(1);
    for (const written of [
      digits,
      `+${digits.slice(0, 1)} ${digits.slice(1, 4)}-${digits.slice(4, 7)}-${digits.slice(7)}`,
      `${digits.slice(0, 1)}-${digits.slice(1, 4)}-${digits.slice(4)}`,
    ]) {
      const id = await dial({ id: written, channel: 'VOICE', network: 'PSTN' });
      const req = await postedSession(id);
      expect(req.path, written).toBe('/forms/voice');
      // The session is delivered as dialled; the application is the number's owner.
      expect(req.body.session.to.id, written).toBe(written);
    }
  });

  it('when nobody owns the address, then sessions.failed says unknown_address, nothing is POSTed and the failure is counted; claiming it later routes the next session', async () => {
    const before = await unknownCount();
    const posted = rx.received.length;
    const number = '+14075550129';
    const id = await dial({ id: '1 407 555 0129', channel: 'VOICE', network: 'PSTN' });
    const o = await outcomes.next(id);
    expect(o).toMatchObject({ subject: 'sessions.failed' });
    expect(o.body).toEqual({
      sessionId: id,
      channel: 'VOICE',
      reason: 'unknown_address',
      attempts: [
        {
          url: null,
          status: 0,
          error: expect.stringMatching(/^unknown_address: no application owns the address 1 407 555 0129/),
          durationMs: 0,
        },
      ],
    });
    await waitFor(async () => (await unknownCount()) === before + 1, { what: 'unknown address counted' });
    await eventsHandled(stack.bus);
    expect(outcomes.of(id)).toHaveLength(1);
    expect(rx.received.length).toBe(posted);

    // The "nobody" in the cache goes when the number is claimed.
    const app = await newApp('late');
    expect(await claim(app, { type: 'number', number })).toBe(number);
    const next = await waitFor(
      async () => {
        const sid = await dial({ id: number, channel: 'VOICE', network: 'PSTN' });
        const o2 = await outcomes.next(sid);
        return o2.subject === 'sessions.instructions' && sid;
      },
      { what: 'a session routed to the claimed number', timeoutMs: 3000, intervalMs: 200 },
    );
    expect((await postedSession(next)).path).toBe('/late/voice');
  });

  it('when the address moves to another application, then the next session goes to the new owner; once released, sessions fail with unknown_address', async () => {
    const from = await newApp('mv-from');
    const to = await newApp('mv-to');
    const number = await claim(from, { type: 'number', prefix: '1407' });
    const first = await dial({ id: number, channel: 'VOICE', network: 'PSTN' });
    expect((await postedSession(first)).path).toBe('/mv-from/voice');

    // addresses.changed reaches the dispatcher within moments (the cache's TTL is 10 minutes).
    const moved = await changeOwner('POST', number, { applicationId: to, previousApplicationId: from });
    expect(moved.status).toBe(200);
    const second = await dial({ id: number, channel: 'VOICE', network: 'PSTN' });
    const req = await postedSession(second);
    expect(req.path).toBe('/mv-to/voice');
    expect(req.body.session).toMatchObject({ applicationId: to, accountId: alice.id });
    expect(rx.at('/mv-from/voice')).toHaveLength(1);

    const released = await changeOwner('DELETE', number, { applicationId: null, previousApplicationId: to });
    expect(released.status).toBeLessThan(300);
    const third = await dial({ id: number, channel: 'VOICE', network: 'PSTN' });
    expect((await outcomes.next(third)).body).toMatchObject({ reason: 'unknown_address' });
    expect(rx.at('/mv-to/voice')).toHaveLength(1);
  });
});

describe('routing while the applications service is away', () => {
  it('when the owner of an address cannot be looked up, then the session waits and is delivered once the lookup answers, never failed', async () => {
    const app = await newApp('away');
    const number = await claim(app, { type: 'number', prefix: '1407' });
    // A dispatcher whose applications service does not answer: the session is held back, not failed.
    const blind = await stack.startDispatcher({ APPLICATIONS_GRPC_URL: `127.0.0.1:${await freePort()}` });
    const id = await dial({ id: number, channel: 'VOICE', network: 'PSTN' });
    await waitFor(
      async () =>
        metricSum(await blind.metrics(), 'dispatcher_deliveries_deferred_total', {
          kind: 'session',
          reason: 'lookup_unavailable',
        }) >= 2,
      {
        what: 'the session deferred twice',
        timeoutMs: 20_000,
      },
    );
    expect(outcomes.of(id)).toHaveLength(0);
    expect(rx.at('/away/voice')).toHaveLength(0);
    await blind.stop();
    // The applications service answers again (here: a dispatcher that reaches it): the same event is delivered.
    const seeing = await stack.startDispatcher();
    try {
      const o = await outcomes.next(id, 20_000);
      expect(o.subject).toBe('sessions.instructions');
      expect(outcomes.of(id)).toHaveLength(1);
      expect(rx.at('/away/voice')).toHaveLength(1);
    } finally {
      await seeing.stop();
    }
  }, 60_000);
});
