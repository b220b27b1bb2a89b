// OAuth2 client credentials to a receiver (docs/api.md#delivery-settings) through the real gateway,
// webhooks service, dispatcher, Postgres and NATS, with a token server on loopback: one token for
// many deliveries, a refused token fetched afresh once, and a token failure recorded with its reason.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  randomName,
  startDeliveryServices,
  startReceiver,
  waitFor,
  type JsonBody,
  type Receiver,
  type Services,
  type TestAccount,
} from '../../../test/support';
import { deliveriesOf, publishCdr, subscribeCdr } from './delivery-helpers.ts';

let stack: Services<{ gateway: true; webhooks: true }>;
let rx: Receiver;
let alice: TestAccount;
let tokenServer: Server;
let tokenUrl: string;
/** The token the server hands out, and the token requests it saw (their form fields). */
let current = 'tok-1';
const tokenRequests: URLSearchParams[] = [];

beforeAll(async () => {
  tokenServer = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      const form = new URLSearchParams(body);
      tokenRequests.push(form);
      if (req.url === '/broken') {
        res.writeHead(500).end('down');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ access_token: current, token_type: 'Bearer', expires_in: 3600 }));
    });
  });
  await new Promise<void>((r) => tokenServer.listen(0, '127.0.0.1', r));
  tokenUrl = `http://127.0.0.1:${(tokenServer.address() as AddressInfo).port}`;
  stack = await startDeliveryServices({
    gateway: true,
    dispatcherEnv: { DELIVERY_RETRY_SCHEDULE: '1h', DELIVERY_TIMEOUT_MS: '5000', RECORD_FLUSH_INTERVAL: '20ms' },
  });
  rx = await startReceiver();
  await stack.startDispatcher();
  alice = await stack.createAccount('alice');
}, 60_000);
afterAll(async () => {
  await stack?.stop();
  await rx?.close();
  await new Promise((r) => tokenServer?.close(r));
});

const json = async (res: Response) => (await res.json()) as Record<string, JsonBody>;

const subscribe = (path: string, tokenPath: string) =>
  subscribeCdr(stack, alice, rx.url(path), {
    auth: {
      type: 'oauth2_client_credentials',
      tokenUrl: `${tokenUrl}${tokenPath}`,
      clientId: 'switchboard',
      clientSecret: 'the-secret',
      scope: 'events',
    },
  });

const publish = (n: number) => publishCdr(stack, alice.id, n);

it('20 events cost one token request; a refused token is fetched again once; a token failure is recorded with its reason', async () => {
  const path = `/oauth/${randomName('t')}`;
  // The receiver takes only the token the server hands out now.
  rx.on(path, (r) => (r.headers.authorization === `Bearer ${current}` ? 204 : 401));
  const sub = await subscribe(path, '/token');
  for (let n = 1; n <= 20; n++) await publish(n);
  await waitFor(() => rx.delivered(path).size === 20, { what: '20 deliveries accepted', timeoutMs: 30_000 });
  expect(tokenRequests.length).toBe(1);
  expect(Object.fromEntries(tokenRequests[0]!)).toEqual({
    grant_type: 'client_credentials',
    client_id: 'switchboard',
    client_secret: 'the-secret',
    scope: 'events',
  });
  expect(rx.at(path).every((r) => r.headers.authorization === 'Bearer tok-1')).toBe(true);

  // The authorization server rotates: the receiver refuses tok-1; one refresh, one retry.
  current = 'tok-2';
  await publish(21);
  await waitFor(() => rx.delivered(path).size === 21, { what: 'the 21st accepted', timeoutMs: 15_000 });
  expect(tokenRequests.length).toBe(2);
  expect(
    rx
      .at(path)
      .slice(-2)
      .map((r) => r.headers.authorization),
  ).toEqual(['Bearer tok-1', 'Bearer tok-2']);

  // A resend carries the cached token too.
  await waitFor(async () => (await deliveriesOf(stack, alice, sub)).length === 21, {
    what: '21 records stored',
    timeoutMs: 15_000,
  });
  const [latest] = await deliveriesOf(stack, alice, sub);
  const resend = await stack.request(alice, 'POST', `/v1/webhooks/${sub}/deliveries/${latest!.id}/resend`);
  expect(resend.status).toBe(202);
  const seen = rx.at(path).length;
  await waitFor(() => rx.at(path).length === seen + 1, { what: 'the resend received', timeoutMs: 15_000 });
  expect(rx.at(path).at(-1)!.headers.authorization).toBe('Bearer tok-2');
  expect(tokenRequests.length).toBe(2);

  // A token server that fails: the delivery fails without reaching the receiver, with the reason.
  const broken = `/oauth-broken/${randomName('t')}`;
  const id = await subscribe(broken, '/broken');
  await publish(22);
  let records: Record<string, JsonBody>[] = [];
  await waitFor(
    async () => {
      records = await deliveriesOf(stack, alice, id);
      return records.length > 0;
    },
    { what: 'the failed delivery recorded', timeoutMs: 15_000 },
  );
  expect(records[0]!.error).toBe('oauth2: token request answered 500');
  expect(rx.at(broken)).toEqual([]);
}, 90_000);

it('"Send test" fetches a token and sends it: the receiver that takes only that token answers the test', async () => {
  const path = `/oauth-test/${randomName('t')}`;
  rx.on(path, (r) => (r.headers.authorization === `Bearer ${current}` ? 204 : 401));
  const tokensBefore = tokenRequests.length;
  current = 'tok-test';
  const sub = await subscribeCdr(stack, alice, rx.url(path), {
    auth: {
      type: 'oauth2_client_credentials',
      tokenUrl: `${tokenUrl}/token-for-tests`,
      clientId: 'tester',
      clientSecret: 'test-secret',
    },
  });
  const tested = await stack.request(alice, 'POST', `/v1/webhooks/${sub}/test`);
  expect(tested.status).toBe(200);
  expect(await json(tested)).toMatchObject({ status: 204 });
  expect(rx.at(path).map((r) => [r.headers.authorization, r.body.event])).toEqual([['Bearer tok-test', 'test']]);
  expect(tokenRequests.slice(tokensBefore).map((f) => Object.fromEntries(f))).toEqual([
    { grant_type: 'client_credentials', client_id: 'tester', client_secret: 'test-secret' },
  ]);

  // A token server that fails: the test answers the token failure and never reaches the receiver.
  const broken = `/oauth-test-broken/${randomName('t')}`;
  const failing = await subscribe(broken, '/broken');
  const failed = await json(await stack.request(alice, 'POST', `/v1/webhooks/${failing}/test`));
  expect(failed).toMatchObject({ status: null, error: 'oauth2: token request answered 500' });
  expect(rx.at(broken)).toEqual([]);
}, 60_000);
