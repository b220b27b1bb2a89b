// A subscription's delivery settings (docs/api.md#delivery-settings) through the real gateway, webhooks
// service, dispatcher, Postgres and NATS: checked on create and update (400 naming the field), secrets
// sealed at rest and read as "***", and the per-subscription timeout applied to attempts.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  queryDatabase,
  startReceiver,
  startDeliveryServices,
  waitFor,
  type JsonBody,
  type Receiver,
  type Services,
  type TestAccount,
} from '../../../test/support';
import { deliveriesOf, publishCdr } from './delivery-helpers.ts';

let stack: Services<{ gateway: true; webhooks: true }>;
let rx: Receiver;
let alice: TestAccount;
let bob: TestAccount;
let pair: { cert: string; key: string; otherKey: string };

/** A self-signed client certificate and its key, and the key of another pair (openssl, in a temporary directory). */
function selfSigned(): { cert: string; key: string; otherKey: string } {
  const dir = mkdtempSync(join(tmpdir(), 'sb-tls-'));
  try {
    const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
    for (const n of ['a', 'b'])
      run(
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-days',
        '2',
        '-subj',
        `/CN=client-${n}`,
        '-keyout',
        `${n}.key`,
        '-out',
        `${n}.crt`,
      );
    const read = (f: string) => readFileSync(join(dir, f), 'utf8');
    return { cert: read('a.crt'), key: read('a.key'), otherKey: read('b.key') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  stack = await startDeliveryServices({
    gateway: true,
    dispatcherEnv: { DELIVERY_RETRY_SCHEDULE: '1h', DELIVERY_TIMEOUT_MS: '10000', RECORD_FLUSH_INTERVAL: '20ms' },
  });
  rx = await startReceiver();
  [alice, bob] = await Promise.all([stack.createAccount('alice'), stack.createAccount('bob')]);
  pair = selfSigned();
}, 60_000);
afterAll(async () => {
  await stack?.stop();
  await rx?.close();
});

const json = async (res: Response) => (await res.json()) as Record<string, JsonBody>;
const idOf = (b: Record<string, JsonBody>) => (b.href as string).split('/').pop()!;

function create(account: TestAccount, extra: Record<string, unknown>, path = '/s') {
  return stack.request(account, 'POST', '/v1/webhooks', {
    event: 'cdrCreated',
    resource: 'all',
    targetUrl: rx.url(path),
    ...extra,
  });
}

/** The fields a 400 problem names. */
async function fieldsOf(res: Response): Promise<string[]> {
  expect(res.status).toBe(400);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  return ((await json(res)).errors as { field: string }[]).map((e) => e.field);
}

const oauth = {
  type: 'oauth2_client_credentials',
  tokenUrl: 'http://127.0.0.1:9/token',
  clientId: 'switchboard',
  clientSecret: 'client-s3cret',
  scope: 'events:write',
};

describe('delivery settings', () => {
  it('bad settings answer 400 problems naming the field', async () => {
    expect(await fieldsOf(await create(alice, { auth: { ...oauth, tokenUrl: 'http://10.1.2.3/token' } }))).toEqual([
      'auth.tokenUrl',
    ]);
    expect(await fieldsOf(await create(alice, { tls: { clientCertificate: pair.cert } }))).toEqual(['tls.privateKey']);
    expect(
      await fieldsOf(await create(alice, { tls: { clientCertificate: pair.cert, privateKey: pair.otherKey } })),
    ).toEqual(['tls.privateKey']);
    expect(await fieldsOf(await create(alice, { rateLimit: { perSecond: 0 } }))).toEqual(['rateLimit.perSecond']);
    expect(await fieldsOf(await create(alice, { timeoutMs: 999 }))).toEqual(['timeoutMs']);
    expect(await fieldsOf(await create(alice, { timeoutMs: 30_001 }))).toEqual(['timeoutMs']);
    expect(await fieldsOf(await create(alice, { ordering: { key: 'a.b' } }))).toEqual(['ordering.key']);
    expect(await fieldsOf(await create(alice, { ordering: { key: 'messageId', maxHoldSeconds: 86_401 } }))).toEqual([
      'ordering.maxHoldSeconds',
    ]);
    expect(await fieldsOf(await create(alice, { auth: { ...oauth, clientSecret: undefined } }))).toEqual([
      'auth.clientSecret',
    ]);
    expect(await fieldsOf(await create(alice, { auth: { ...oauth, type: 'basic' } }))).toEqual(['auth.type']);
    // Nothing was stored by the refused creates.
    expect(await json(await stack.request(alice, 'GET', '/v1/webhooks'))).toEqual([]);
  });

  it('stores the settings, seals the secrets and reads them as ***; PUT replaces, {} removes', async () => {
    const res = await create(alice, {
      timeoutMs: 5000,
      ordering: { key: 'messageId' },
      rateLimit: { perSecond: 2 },
      auth: oauth,
      tls: { clientCertificate: pair.cert, privateKey: pair.key },
    });
    expect(res.status).toBe(200);
    const created = await json(res);
    const id = idOf(created);
    const expected = {
      timeoutMs: 5000,
      ordering: { key: 'messageId', maxHoldSeconds: 3600 },
      rateLimit: { perSecond: 2 },
      auth: { ...oauth, clientSecret: '***' },
      tls: { clientCertificate: pair.cert.trim(), privateKey: '***' },
    };
    expect(await json(await stack.request(alice, 'GET', `/v1/webhooks/${id}`))).toMatchObject(expected);
    expect((await json(await stack.request(alice, 'GET', '/v1/webhooks'))) as unknown).toMatchObject([expected]);
    // Another account's subscription is not found.
    expect((await stack.request(bob, 'PUT', `/v1/webhooks/${id}`, { timeoutMs: 2000 })).status).toBe(404);

    // At rest: neither secret in clear.
    const [row] = await queryDatabase<{ settings: string }>(
      stack.databaseUrl,
      'select settings::text from webhooks.subscriptions where id = $1',
      [id],
    );
    expect(row!.settings).not.toContain('client-s3cret');
    expect(row!.settings).not.toContain(pair.key.split('\n')[1]!);

    // PUT: the fields given replace, the others stay; {} removes one.
    const put = await stack.request(alice, 'PUT', `/v1/webhooks/${id}`, { timeoutMs: 2000, tls: {}, rateLimit: null });
    expect(put.status).toBe(200);
    const updated = await json(await stack.request(alice, 'GET', `/v1/webhooks/${id}`));
    const { tls: _removed, ...kept } = expected;
    expect(updated).toMatchObject({ ...kept, timeoutMs: 2000 });
    expect(updated.tls).toBeUndefined();
    // A bad update changes nothing.
    expect(
      await fieldsOf(await stack.request(alice, 'PUT', `/v1/webhooks/${id}`, { rateLimit: { perSecond: 1001 } })),
    ).toEqual(['rateLimit.perSecond']);
    expect(await json(await stack.request(alice, 'GET', `/v1/webhooks/${id}`))).toMatchObject({
      rateLimit: { perSecond: 2 },
    });
    // timeoutMs: null removes the subscription's own timeout (DELIVERY_TIMEOUT_MS again); the rest stays.
    expect((await stack.request(alice, 'PUT', `/v1/webhooks/${id}`, { timeoutMs: null })).status).toBe(200);
    const reset = await json(await stack.request(alice, 'GET', `/v1/webhooks/${id}`));
    expect(reset.timeoutMs).toBeUndefined();
    expect(reset).toMatchObject({ rateLimit: { perSecond: 2 }, ordering: expected.ordering });
  });

  it('a subscription with timeoutMs gives up on a hanging receiver after its own timeout', async () => {
    rx.on('/hang', () => 'hang');
    const dispatcher = await stack.startDispatcher();
    try {
      const quick = idOf(await json(await create(alice, { timeoutMs: 1000 }, '/hang')));
      const started = Date.now();
      await publishCdr(stack, alice.id, 1);
      let records: Record<string, JsonBody>[] = [];
      await waitFor(
        async () => {
          records = await deliveriesOf(stack, alice, quick);
          return records.length > 0;
        },
        { what: 'the timed-out attempt recorded', timeoutMs: 9000 },
      );
      // DELIVERY_TIMEOUT_MS is 10 s: the record comes from the subscription's 1 s.
      expect(records[0]!.error).toBe('timed out after 1000 ms');
      expect(Date.now() - started).toBeLessThan(9000);
    } finally {
      await dispatcher.stop();
    }
  });
});
