// The published Node Tropo client (npm tropo-webapi), unchanged, against the gateway. It always
// speaks https to api.tropo.com:443; the test redirects its transport, not the library: the
// `https` module object it captured gets a `request` that sends the same request over plain
// http to the gateway on 127.0.0.1.
import http from 'node:http';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addNumbers } from '@switchboard/applications/numbers';
import { STREAMS } from '@switchboard/events';
import { ORLANDO, orlandoNumber, startServices, waitFor, type Services, type TestAccount } from '../../../test/support';
import { createApplication } from './harness';

const require = createRequire(import.meta.url);
const https = require('node:https') as { request: unknown };
const { TropoProvision } = require('tropo-webapi/lib/tropo-provisioning.js') as {
  TropoProvision: new (user: string, password: string) => TropoClient;
};

const { TropoSession } = require('tropo-webapi/lib/tropo-session.js') as {
  TropoSession: new () => Emitter & { makeApiCall(token: string, parameters: Record<string, string>): void };
};

interface Emitter {
  on(event: 'responseCode', fn: (code: number) => void): void;
  on(event: 'responseBody', fn: (body: string) => void): void;
  removeAllListeners(): void;
}

interface TropoClient {
  on(event: 'responseCode', fn: (code: number) => void): void;
  on(event: 'responseBody', fn: (body: string) => void): void;
  removeAllListeners(): void;
  viewAddresses(applicationId: string, type?: string | null, address?: string | null): void;
  updateApplicationAddress(
    applicationId: string,
    type: string,
    prefix: string | null,
    number: string | null,
    city: string | null,
    state: string | null,
    channel: string | null,
    username: string | null,
    password: string | null,
    token: string | null,
  ): void;
  deleteApplicationAddress(applicationId: string, type: string, address: string): void;
  viewExchanges(): void;
  viewAvailableAddresses(prefix: string): void;
}

let stack: Services<{ gateway: true }>;
let alice: TestAccount;
let appId: string;
let originalRequest: unknown;
let client: TropoClient;
/** Requests the library made, as the gateway received them. */
const seen: { method: string; path: string; host: string | undefined }[] = [];

beforeAll(async () => {
  stack = await startServices({ gateway: true });
  alice = await stack.createAccount('tropo');
  appId = await createApplication(stack, alice, { name: 'tropo' });
  await addNumbers(stack.applications.app.orm.em.fork(), ['+14075550100', '+14075550101', '+14075550102'], ORLANDO);

  originalRequest = https.request;
  https.request = (options: http.RequestOptions, callback: (res: http.IncomingMessage) => void) => {
    seen.push({
      method: String(options.method),
      path: String(options.path),
      host: (options.headers as Record<string, string>).host,
    });
    return http.request({ ...options, protocol: 'http:', hostname: '127.0.0.1', port: stack.gateway.port }, callback);
  };
  client = new TropoProvision(alice.username, alice.password);
}, 120_000);

afterAll(async () => {
  if (originalRequest) https.request = originalRequest;
  await stack?.stop();
});

/** Runs one library call and collects its responseCode and responseBody events. */
function call(run: () => void, emitter: Emitter = client): Promise<{ code: number; body: string }> {
  return new Promise((resolve) => {
    let code = 0;
    emitter.removeAllListeners();
    emitter.on('responseCode', (c) => (code = c));
    emitter.on('responseBody', (body) => resolve({ code, body }));
    run();
  });
}

describe('the npm tropo-webapi client, unchanged', () => {
  it('when it lists exchanges and available numbers, then it reads them (viewExchanges, viewAvailableAddresses)', async () => {
    const exchanges = await call(() => client.viewExchanges());
    expect(exchanges.code).toBe(200);
    expect(JSON.parse(exchanges.body)).toEqual([{ prefix: '1407', city: 'Orlando', state: 'FL', country: 'US' }]);

    const available = await call(() => client.viewAvailableAddresses('1407'));
    expect(available.code).toBe(200);
    expect((JSON.parse(available.body) as { number: string }[]).map((a) => a.number)).toEqual([
      '+14075550100',
      '+14075550101',
      '+14075550102',
    ]);
    expect(seen.at(-1)).toEqual({ method: 'GET', path: '/addresses?available&prefix=1407', host: 'api.tropo.com' });
  });

  it('when it adds a number and a token, lists, reads and deletes them, then each call answers as Tropo did', async () => {
    const number = await call(() =>
      client.updateApplicationAddress(appId, 'number', '1407', null, null, null, null, null, null, null),
    );
    expect(number.code).toBe(200);
    const numberHref = (JSON.parse(number.body) as { href: string }).href;
    expect(numberHref).toBe(`${stack.baseUrl}/rest/v1/applications/${appId}/addresses/number/+14075550100`);

    const token = await call(() =>
      client.updateApplicationAddress(appId, 'token', null, null, null, null, 'voice', null, null, null),
    );
    expect(token.code).toBe(200);
    const tokenValue = (JSON.parse(token.body) as { href: string }).href.split('/').pop()!;

    const all = await call(() => client.viewAddresses(appId));
    expect(all.code).toBe(200);
    expect(JSON.parse(all.body)).toEqual([
      {
        href: numberHref,
        type: 'number',
        ...orlandoNumber(),
      },
      { href: expect.stringContaining(tokenValue), type: 'token', channel: 'voice', token: tokenValue },
    ]);
    const numbers = await call(() => client.viewAddresses(appId, 'number'));
    expect((JSON.parse(numbers.body) as unknown[]).length).toBe(1);
    const one = await call(() => client.viewAddresses(appId, 'number', '+14075550100'));
    expect(one.code).toBe(200);
    expect(JSON.parse(one.body)).toMatchObject({ href: numberHref, number: '+14075550100' });

    // DELETE goes out with Content-Type: application/json and Content-Length: 0.
    const deleted = await call(() => client.deleteApplicationAddress(appId, 'number', '+14075550100'));
    expect(deleted.code).toBe(200);
    expect(JSON.parse(deleted.body)).toEqual({ message: expect.stringMatching(/released/) });
    expect((await call(() => client.viewAddresses(appId, 'number', '+14075550100'))).code).toBe(404);
    const freeAgain = await call(() => client.viewAvailableAddresses('14075550100'));
    expect((JSON.parse(freeAgain.body) as { number: string }[]).map((a) => a.number)).toEqual(['+14075550100']);
  });

  it('when a call fails, then the problem body carries error, which the Tropo clients show', async () => {
    const res = await call(() =>
      client.updateApplicationAddress(appId, 'skype', null, null, null, null, null, 'me', 'secret', null),
    );
    expect(res.code).toBe(400);
    const body = JSON.parse(res.body) as { error: string; detail: string };
    expect(body.error).toBe(body.detail);
    expect(body.error).toMatch(/no longer supported/);
  });

  it('when TropoSession launches a session with a token, then it gets the XML answer Tropo gave and the session carries its parameters', async () => {
    const token = (
      JSON.parse(
        (
          await call(() =>
            client.updateApplicationAddress(appId, 'token', null, null, null, null, 'messaging', null, null, null),
          )
        ).body,
      ) as { href: string }
    ).href
      .split('/')
      .pop()!;
    const session = new TropoSession();
    const res = await call(
      () => session.makeApiCall(token, { numberToDial: '14075550100', msg: 'hello there' }),
      session,
    );
    expect(seen.at(-1)).toEqual({
      method: 'GET',
      path: `/1.0/sessions?action=create&token=${token}&numberToDial=14075550100&msg=hello%20there`,
      host: 'api.tropo.com',
    });
    expect(res.code).toBe(200);
    const id =
      /^<\?xml[^>]*>\s*<session><success>true<\/success><token>([0-9a-f]{64})<\/token><id>([0-9a-f]{32})<\/id><\/session>\s*$/.exec(
        res.body,
      );
    expect(id?.[1]).toBe(token);
    // The session is on its way to the dispatcher with the parameters the library sent.
    const event = await waitFor(async () => {
      const m = await stack.bus.jsm.streams
        .getMessage(STREAMS.events.name, { last_by_subj: 'sessions.new' })
        .catch(() => null);
      const e = m?.json<{ applicationId: string; session: { id: string; parameters: Record<string, string> } }>();
      return e?.session.id === id?.[2] ? e : undefined;
    });
    expect(event).toMatchObject({
      applicationId: appId,
      accountId: alice.id,
      session: {
        userType: 'NONE',
        accountId: alice.id,
        parameters: { numberToDial: '14075550100', msg: 'hello there' },
      },
    });

    const unknown = await call(() => session.makeApiCall('0'.repeat(64), {}), session);
    expect(unknown.code).toBe(404);
    expect((JSON.parse(unknown.body) as { error: string }).error).toMatch(/token not found/);
  });
});
