// The Session API through the real gateway, applications service (gRPC, Postgres, outbox), NATS and
// a dispatcher delivering to a loopback application: launching with a token (query, JSON, form, GET),
// the JSON and XML answers, where the session goes and what it carries, refused tokens and
// parameters, the per-token rate limit, and signals (QUEUED on sessions.signal, or NOTFOUND).
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@switchboard/observability';
import { STREAMS, SUBJECTS } from '@switchboard/events';
import {
  startReceiver,
  startServices,
  waitFor,
  type Receiver,
  type Services,
  type TestAccount,
  type JsonBody,
} from '../../../test/support';
import { eventsHandled, TEST_DISPATCHER_ENV } from '../../dispatcher/test/harness';
import { verifySignature } from '../../dispatcher/src/delivery/signing';

let stack: Services<{ gateway: true; webhooks: true; dispatcher: true }>;
let rx: Receiver;
let me: TestAccount;
let appId: string;
let secret: string;

const RATE = 5;
/** Every line the gateway and the applications service logged, at info. */
const logs: string[] = [];
const tokens = new Set<string>();

beforeAll(async () => {
  rx = await startReceiver();
  stack = await startServices({
    gateway: true,
    webhooks: true,
    dispatcher: true,
    env: { DELIVERY_ALLOWED_CIDRS: '127.0.0.0/8,::1/128', SESSION_RATE_LIMIT_PER_SECOND: String(RATE) },
    dispatcherEnv: TEST_DISPATCHER_ENV,
    logger: (service: string) =>
      service === 'webhooks'
        ? createLogger(service, 'silent')
        : createLogger(
            service,
            'info',
            new Writable({
              write(chunk: Buffer, _enc, done) {
                logs.push(chunk.toString('utf8'));
                done();
              },
            }),
          ),
  });
  me = await stack.createAccount('sess');
  const res = await stack.request(me, 'POST', '/v1/applications', {
    name: 'launcher',
    voiceUrl: rx.url('/voice'),
    messagingUrl: rx.url('/messaging'),
  });
  appId = String(((await res.json()) as { href: string }).href)
    .split('/')
    .pop()!;
  secret = ((await (await stack.request(me, 'GET', `/v1/applications/${appId}/secret`)).json()) as { secret: string })
    .secret;
});
afterAll(async () => {
  await stack?.stop();
  await rx?.close();
});

const json = async (res: Response) => (await res.json()) as Record<string, JsonBody>;

async function newToken(channel: 'voice' | 'messaging'): Promise<string> {
  const res = await stack.request(me, 'POST', `/v1/applications/${appId}/addresses`, { type: 'token', channel });
  expect(res.status).toBe(200);
  const token = String((await json(res)).href)
    .split('/')
    .pop()!;
  tokens.add(token);
  return token;
}

/** A request without credentials (the Session API takes none), checked against the OpenAPI document. */
const call = (method: string, path: string, body?: string, headers: Record<string, string> = {}) =>
  stack.request(undefined, method, path, body, headers);

/** The session POST the application received for this session id. */
async function arrived(sessionId: string) {
  return waitFor(() => rx.received.find((r) => r.body?.session?.id === sessionId), {
    what: `session ${sessionId} at the application`,
    timeoutMs: 15_000,
  });
}

async function problem(res: Response, status: number): Promise<Record<string, JsonBody>> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  return json(res);
}

describe('launching a session with a token', () => {
  it('when a voice token is POSTed as JSON to /1.0/sessions, then the signed session POST reaches voiceUrl with userType NONE and every other field as a string parameter', async () => {
    const token = await newToken('voice');
    const res = await call(
      'POST',
      '/1.0/sessions',
      JSON.stringify({ token, numberToDial: '+14075550100', count: 3, loud: true, note: null }),
      { 'content-type': 'application/json', accept: 'application/json' },
    );
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toEqual({ success: true, token, id: expect.stringMatching(/^[0-9a-f]{32}$/) });

    const got = await arrived(body.id);
    expect(got.path).toBe('/voice');
    expect(verifySignature(secret, got.headers, got.raw)).toBe(true);
    const s = got.body.session;
    expect(s).toMatchObject({
      id: body.id,
      accountId: me.id,
      applicationId: appId,
      userType: 'NONE',
      callId: null,
      initialText: null,
      headers: {},
    });
    expect(s.parameters).toEqual({ numberToDial: '+14075550100', count: '3', loud: 'true' });
    expect(s.from).toMatchObject({ id: null, channel: 'VOICE' });
    expect(s.to).toMatchObject({ id: null, channel: 'VOICE' });
    expect(Date.now() - Date.parse(s.timestamp)).toBeLessThan(60_000);
    expect(s.timestamp).toMatch(/Z$/);
  });

  it('when a messaging token launches through GET /1.0/sessions?action=create (the Tropo form), then the session goes to messagingUrl and the answer is XML', async () => {
    const token = await newToken('messaging');
    const res = await call('GET', `/1.0/sessions?action=create&token=${token}&msg=hello%20there&to=4075551212`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
    const xml = await res.text();
    const id = /<id>([0-9a-f]{32})<\/id>/.exec(xml)?.[1];
    expect(xml).toContain(`<session><success>true</success><token>${token}</token><id>${id}</id></session>`);

    const got = await arrived(id!);
    expect(got.path).toBe('/messaging');
    expect(got.body.session.parameters).toEqual({ msg: 'hello there', to: '4075551212' });
    expect(got.body.session.from.channel).toBe('TEXT');
  });

  it('when the fields come as a form, or in the query of a POST, on /v1/sessions (with or without slash) and /rest/v1/sessions, then each launches a session answered in JSON', async () => {
    const token = await newToken('voice');
    const form = await call('POST', '/v1/sessions', new URLSearchParams({ token, customer: 'Ann & Bob' }).toString(), {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(form.status).toBe(200);
    expect(form.headers.get('content-type')).toMatch(/^application\/json/);
    const fromForm = await json(form);
    expect((await arrived(fromForm.id)).body.session.parameters).toEqual({ customer: 'Ann & Bob' });

    const query = await call('POST', `/v1/sessions/?token=${token}&a=1`);
    expect(query.status).toBe(200);
    expect((await arrived((await json(query)).id)).body.session.parameters).toEqual({ a: '1' });

    const rest = await call('GET', `/rest/v1/sessions?token=${token}`, undefined, { accept: 'text/xml' });
    expect(rest.status).toBe(200);
    expect(rest.headers.get('content-type')).toMatch(/^text\/xml/);
    expect(await rest.text()).toMatch(/<success>true<\/success>/);
  });

  it('when the Accept header prefers XML, or JSON, then that is the answer on either path', async () => {
    const token = await newToken('voice');
    const xml = await call('POST', '/v1/sessions', JSON.stringify({ token }), {
      'content-type': 'application/json',
      accept: 'application/json;q=0.5, application/xml',
    });
    expect(xml.headers.get('content-type')).toMatch(/^application\/xml/);
    const legacyJson = await call('GET', `/1.0/sessions?token=${token}`, undefined, { accept: 'application/json' });
    expect(legacyJson.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await json(legacyJson)).success).toBe(true);
  });

  it('when the token is unknown, or was released, then it is a 404 problem and nothing is delivered', async () => {
    const unknown = await problem(await call('GET', `/1.0/sessions?token=${randomBytes(32).toString('hex')}`), 404);
    expect(unknown.error).toMatch(/token not found/);

    const token = await newToken('voice');
    const del = await stack.request(me, 'DELETE', `/v1/applications/${appId}/addresses/token/${token}`);
    expect(del.status).toBe(200);
    const before = rx.received.length;
    await problem(
      await call('POST', '/v1/sessions', JSON.stringify({ token, x: '1' }), { 'content-type': 'application/json' }),
      404,
    );
    await eventsHandled(stack.bus);
    expect(rx.received.length).toBe(before);
  });

  it('when the token is missing, only in Basic auth, repeated, or the action is not create, then it is a clear 400', async () => {
    const token = await newToken('voice');
    const basicOnly = await problem(
      await call('POST', '/v1/sessions', JSON.stringify({ x: '1' }), {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from(`${token}:`).toString('base64')}`,
      }),
      400,
    );
    expect(basicOnly.detail).toMatch(/token parameter .*not as credentials in the Authorization header/);
    expect(basicOnly.errors).toEqual([
      { field: 'token', message: expect.stringMatching(/not in the Authorization header/) },
    ]);

    expect((await problem(await call('GET', '/1.0/sessions?action=create'), 400)).errors[0].field).toBe('token');
    expect((await problem(await call('GET', `/1.0/sessions?token=${token}&token=${token}`), 400)).errors[0].field).toBe(
      'token',
    );
    expect((await problem(await call('GET', `/1.0/sessions?action=delete&token=${token}`), 400)).errors[0].field).toBe(
      'action',
    );
    expect(
      (
        await problem(
          await call('POST', `/v1/sessions?token=${token}`, JSON.stringify({ token: 'other' }), {
            'content-type': 'application/json',
          }),
          400,
        )
      ).errors[0].field,
    ).toBe('token');
    await problem(await call('POST', '/v1/sessions', `token=${token}`, { 'content-type': 'text/plain' }), 415);
    await problem(await call('DELETE', '/v1/sessions'), 405);
    // GET launches, so HEAD (which Express would answer with the GET handler) must not.
    const before = rx.received.length;
    const head = await fetch(`${stack.baseUrl}/1.0/sessions?token=${token}`, { method: 'HEAD' });
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('GET, POST');
    await eventsHandled(stack.bus);
    expect(rx.received.length).toBe(before);
  });

  it('when parameters are too many, too long or not strings, then it is a 400 naming them', async () => {
    const token = await newToken('voice');
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`p${i}`, 'v']));
    expect(
      (
        await problem(
          await call('POST', '/v1/sessions', JSON.stringify({ token, ...many }), {
            'content-type': 'application/json',
          }),
          400,
        )
      ).detail,
    ).toMatch(/at most 50 parameters/);
    const long = await problem(
      await call('POST', '/v1/sessions', JSON.stringify({ token, big: 'x'.repeat(2049) }), {
        'content-type': 'application/json',
      }),
      400,
    );
    expect(long.errors).toEqual([{ field: 'big', message: 'must be at most 2048 characters' }]);
    const name = await problem(
      await call('POST', '/v1/sessions', JSON.stringify({ token, ['n'.repeat(65)]: '1' }), {
        'content-type': 'application/json',
      }),
      400,
    );
    expect(name.errors[0].message).toMatch(/parameter name must be 1 to 64/);
    const nested = await problem(
      await call('POST', '/v1/sessions', JSON.stringify({ token, obj: { a: 1 } }), {
        'content-type': 'application/json',
      }),
      400,
    );
    expect(nested.errors).toEqual([{ field: 'obj', message: 'must be a string, number or boolean' }]);
    // Exactly at the limits is fine.
    const ok = await call(
      'POST',
      '/v1/sessions',
      JSON.stringify({
        token,
        big: 'x'.repeat(2048),
        ...Object.fromEntries(Array.from({ length: 49 }, (_, i) => [`p${i}`, 'v'])),
      }),
      { 'content-type': 'application/json' },
    );
    expect(ok.status).toBe(200);
  });

  it('when one token launches faster than its rate limit, then the excess is a 429 with Retry-After', async () => {
    const token = randomBytes(32).toString('hex');
    const answers = await Promise.all(
      Array.from({ length: RATE * 2 + 5 }, () => call('GET', `/1.0/sessions?token=${token}`)),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 404).length).toBeGreaterThanOrEqual(RATE * 2 - 1);
    const limited = answers.find((r) => r.status === 429);
    expect(limited).toBeDefined();
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await json(limited!)).code).toBe('rate_limited');
    // Another token is not held back.
    expect((await call('GET', `/1.0/sessions?token=${randomBytes(32).toString('hex')}`)).status).toBe(404);
  });
});

describe('signals', () => {
  /** The last sessions.signal message on the core stream. */
  const lastSignal = async () => {
    const m = await stack.bus.jsm.streams
      .getMessage(STREAMS.core.name, { last_by_subj: SUBJECTS.sessionSignal })
      .catch(() => null);
    return m ? m.json<{ sessionId: string; value: string }>() : undefined;
  };

  it('when a launched session is signalled (GET with action=signal, or a JSON POST), then the signal is QUEUED on sessions.signal', async () => {
    const token = await newToken('voice');
    const { id } = await json(
      await call('POST', '/v1/sessions', JSON.stringify({ token }), { 'content-type': 'application/json' }),
    );
    const res = await call('GET', `/1.0/sessions/${id}/signals?action=signal&value=exit`);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ status: 'QUEUED' });
    expect(await lastSignal()).toEqual({ sessionId: id, value: 'exit' });

    const post = await call('POST', `/v1/sessions/${id}/signals`, JSON.stringify({ signal: 'stopHold' }), {
      'content-type': 'application/json',
    });
    expect(await json(post)).toEqual({ status: 'QUEUED' });
    expect(await lastSignal()).toEqual({ sessionId: id, value: 'stopHold' });
  });

  it('when a session the telephony core sent was delivered by the dispatcher, then it can be signalled', async () => {
    const sessionId = `core-${randomBytes(8).toString('hex')}`;
    await stack.publish('sessions.new', {
      applicationId: appId,
      session: {
        id: sessionId,
        from: { id: '+14075550199', channel: 'VOICE' },
        to: { id: '+14075550100', channel: 'VOICE' },
      },
    });
    await arrived(sessionId);
    const res = await waitFor(
      async () => {
        const r = await json(
          await call(
            'POST',
            `/1.0/sessions/${sessionId}/signals`,
            new URLSearchParams({ value: 'hangup' }).toString(),
            { 'content-type': 'application/x-www-form-urlencoded' },
          ),
        );
        return r.status === 'QUEUED' ? r : undefined;
      },
      { what: 'the routed session to be signalled' },
    );
    expect(res).toEqual({ status: 'QUEUED' });
    expect(await lastSignal()).toEqual({ sessionId, value: 'hangup' });
  });

  it('when the session was not started or routed here, then it is NOTFOUND and nothing is published; a malformed id or value is a 400', async () => {
    const before = await lastSignal();
    const res = await call('GET', `/1.0/sessions/${randomBytes(16).toString('hex')}/signals?value=exit`);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ status: 'NOTFOUND' });
    expect(await lastSignal()).toEqual(before);

    const token = await newToken('voice');
    const { id } = await json(
      await call('POST', '/v1/sessions', JSON.stringify({ token }), { 'content-type': 'application/json' }),
    );
    expect((await problem(await call('GET', `/1.0/sessions/${id}/signals`), 400)).errors[0].field).toBe('value');
    expect(
      (await problem(await call('GET', `/1.0/sessions/${id}/signals?value=${'x'.repeat(257)}`), 400)).errors[0].field,
    ).toBe('value');
    expect((await problem(await call('GET', `/1.0/sessions/${id}/signals?value=a%0Ab`), 400)).errors[0].field).toBe(
      'value',
    );
    expect(
      (await problem(await call('GET', `/1.0/sessions/${'s'.repeat(201)}/signals?value=exit`), 400)).errors[0].field,
    ).toBe('sessionId');
    expect(
      (await problem(await call('GET', `/1.0/sessions/${id}/signals?action=create&value=exit`), 400)).errors[0].field,
    ).toBe('action');
    await problem(await call('GET', `/1.0/sessions/${id}`), 404);
  });
});

describe('while NATS is away', () => {
  it('when a session is launched or signalled, then it is a 503 that launched nothing; once NATS is back, launches and signals work again', async () => {
    const token = await newToken('voice');
    const { id } = await json(
      await call('POST', '/v1/sessions', JSON.stringify({ token }), { 'content-type': 'application/json' }),
    );
    await arrived(id);
    await stack.nats.stop();
    let down = true;
    try {
      const before = rx.received.length;
      const launch = await problem(
        await call('POST', '/v1/sessions', JSON.stringify({ token, during: 'outage' }), {
          'content-type': 'application/json',
        }),
        503,
      );
      expect(launch.code).toBe('unavailable');
      expect(JSON.stringify(launch)).not.toMatch(/nats:|127\.0\.0\.1|stack/i);
      expect((await problem(await call('GET', `/1.0/sessions/${id}/signals?value=exit`), 503)).code).toBe(
        'unavailable',
      );
      await stack.nats.start();
      down = false;
      // Nothing of the refused launch comes later.
      const again = await waitFor(
        async () => {
          const r = await call('POST', '/v1/sessions', JSON.stringify({ token, after: 'outage' }), {
            'content-type': 'application/json',
          });
          return r.status === 200 ? json(r) : undefined;
        },
        { timeoutMs: 20_000, what: 'launches after NATS came back' },
      );
      expect((await arrived(again.id)).body.session.parameters).toEqual({ after: 'outage' });
      expect(rx.received.slice(before).some((r) => r.body?.session?.parameters?.during)).toBe(false);
      expect(await json(await call('GET', `/1.0/sessions/${id}/signals?value=exit`))).toEqual({ status: 'QUEUED' });
    } finally {
      if (down) await stack.nats.start();
    }
  }, 60_000);
});

describe('logs', () => {
  it('when the token is named percent-encoded (%74oken) in a query or an address path, and a session is signalled, then the gateway logs none of those credentials', async () => {
    const token = await newToken('voice');
    const launched = await call('POST', `/v1/sessions?%74oken=${token}`);
    expect(launched.status).toBe(200);
    const { id } = await json(launched);
    expect(await json(await call('POST', `/1.0/sessions/${id}/signals?value=exit`))).toEqual({ status: 'QUEUED' });
    expect((await stack.request(me, 'GET', `/v1/applications/${appId}/addresses/%74oken/${token}`)).status).toBe(200);
    await waitFor(() => logs.some((l) => l.includes('%74oken/***')), { what: 'the address request logged' });
    expect(logs.some((l) => l.includes('%74oken=***'))).toBe(true);
    expect(logs.some((l) => l.includes('/1.0/sessions/***/signals'))).toBe(true);
    expect(logs.filter((l) => l.includes(token) || l.includes(id))).toEqual([]);
  });

  it('when sessions were launched with tokens in the query and the body, then no log line of the gateway or the applications service holds a token (nor do the lines of the address API, which has them in paths)', () => {
    expect(tokens.size).toBeGreaterThan(5);
    expect(logs.some((l) => l.includes('/1.0/sessions?') && l.includes('token=***'))).toBe(true);
    const leaks = logs.filter((l) => [...tokens].some((t) => l.includes(t)));
    expect(leaks).toEqual([]);
  });
});
