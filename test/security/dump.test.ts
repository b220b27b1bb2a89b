// A dump of the database holds no credential in clear: every path that stores or answers a secret
// is used, plainly and with an Idempotency-Key (whose stored answer is kept for replays), and then
// the whole test database is dumped (pg_dump, data only) and searched for each secret value.
//
// Not searched for: the session token of a token address. It is stored in clear in
// applications.addresses.value on purpose: it is an address, the key the Session API and the
// telephony core resolve a launch by (an index lookup on the value), and it is answered again by
// the address listings. It authorises launching a session of its application, not signing or
// reading anything; it is released by deleting the address.
import { expect, it } from 'vitest';
import {
  dumpDatabase,
  randomName,
  useDeliveryStack,
  waitFor,
  type JsonBody,
  type Receiver,
  type Services,
} from '../support';

let stack: Services<{ gateway: true; webhooks: true; dispatcher: true }>;
let rx: Receiver;

useDeliveryStack({ gateway: true, dispatcher: true }, (f) => ({ stack, rx } = f));

const idOf = (href: string) => href.split('/').pop()!;

it('after every secret-bearing request, plain and idempotent, the database dump holds none of the secrets in clear', async () => {
  const acct = await stack.createAccount('dump');
  const secrets = new Map<string, string>([['the account password', acct.password]]);
  const markers: string[] = [acct.username];
  const targets: [path: string, subscription: string][] = [];
  /** A POST or GET whose answer must be 200; with `idem`, it is sent once more with the same key and must answer the same. */
  const call = async (method: string, path: string, body?: unknown, idem = false) => {
    const headers = idem ? { 'Idempotency-Key': randomName('k') } : undefined;
    const res = await stack.request(acct, method, path, body, headers);
    expect(res.status, `${method} ${path}`).toBeLessThan(300);
    const answer = (await res.json()) as Record<string, JsonBody>;
    if (idem) {
      const replay = await stack.request(acct, method, path, body, headers);
      expect(await replay.json(), `replay of ${method} ${path}`).toEqual(answer);
    }
    return answer;
  };

  const app = await call(
    'POST',
    '/v1/applications',
    { name: `app-${acct.username}`, voiceUrl: rx.url('/voice') },
    true,
  );
  const appId = idOf(app.href);
  markers.push(appId);

  // Subscriptions of both levels, each plainly and idempotently, with custom headers; their
  // secrets as created, as read and as rotated (plainly and idempotently).
  for (const [level, path] of [
    ['account', '/v1/webhooks'],
    ['application', `/v1/applications/${appId}/webhooks`],
  ] as const) {
    for (const idem of [false, true]) {
      const tag = `${level}${idem ? ' idempotent' : ''}`;
      const headers = {
        Authorization: `Bearer ${randomName('authz')}`,
        'X-Api-Key': randomName('apikey'),
        Cookie: `sid=${randomName('cookie')}`,
      };
      const target = `/${randomName('t')}`;
      const sub = await call(
        'POST',
        path,
        { event: 'cdrCreated', resource: 'all', targetUrl: rx.url(target), headers },
        idem,
      );
      const subId = idOf(sub.href);
      if (level === 'account') targets.push([target, subId]);
      markers.push(subId);
      for (const [name, value] of Object.entries(headers)) secrets.set(`${tag} subscription header ${name}`, value);
      secrets.set(`${tag} subscription secret (created)`, sub.secret);
      expect((await call('GET', `/v1/webhooks/${subId}/secret`)).secret).toBe(sub.secret);
      secrets.set(
        `${tag} subscription secret (rotated plainly)`,
        (await call('POST', `/v1/webhooks/${subId}/secret/rotate`)).secret,
      );
      secrets.set(
        `${tag} subscription secret (rotated idempotently)`,
        (await call('POST', `/v1/webhooks/${subId}/secret/rotate`, undefined, true)).secret,
      );
      // The headers are answered masked, never in clear.
      const read = await call('GET', `/v1/webhooks/${subId}`);
      for (const value of Object.values(headers)) expect(JSON.stringify(read)).not.toContain(value);
    }
  }

  // The application's session secret: read, rotated plainly and idempotently.
  secrets.set('application secret (read)', (await call('GET', `/v1/applications/${appId}/secret`)).secret);
  secrets.set(
    'application secret (rotated plainly)',
    (await call('POST', `/v1/applications/${appId}/secret/rotate`)).secret,
  );
  secrets.set(
    'application secret (rotated idempotently)',
    (await call('POST', `/v1/applications/${appId}/secret/rotate`, undefined, true)).secret,
  );

  // Token addresses, plainly and idempotently (the token itself is an address: see the top).
  for (const idem of [false, true]) {
    const claimed = await call(
      'POST',
      `/v1/applications/${appId}/addresses`,
      { type: 'token', channel: 'voice' },
      idem,
    );
    markers.push(decodeURIComponent(idOf(claimed.href)));
  }

  // API keys, plainly and with an Idempotency-Key header.
  for (const idem of [false, true]) {
    const key = await call('POST', '/v1/api-keys', { name: randomName('key'), scope: 'read' }, idem);
    expect(key.key).toMatch(/^sbk_/);
    secrets.set(`API key${idem ? ' (idempotent)' : ''}`, key.key);
    markers.push(key.id);
  }

  // Console sessions, plainly and with an Idempotency-Key header: the cookie's value.
  for (const idem of [false, true]) {
    const res = await stack.request(
      undefined,
      'POST',
      '/v1/console/session',
      { username: acct.username, password: acct.password },
      idem ? { 'Idempotency-Key': randomName('k') } : {},
    );
    expect(res.status).toBe(200);
    const cookie = /__Host-sb_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
    expect(cookie, 'the __Host-sb_session cookie').toBeTruthy();
    secrets.set(`console session cookie${idem ? ' (idempotent)' : ''}`, decodeURIComponent(cookie!));
  }

  // An event delivered to the account-level subscriptions: the dispatcher sends the custom headers
  // (in clear, to the receiver), and the delivery records it keeps must not hold them.
  const eventId = randomName('evt');
  await stack.publish('cdr.created', {
    id: eventId,
    accountId: acct.id,
    resource: 'call',
    timestamp: new Date().toISOString(),
    data: { n: 1 },
  });
  for (const [t, subId] of targets) {
    await waitFor(() => rx.at(t).length >= 1, { what: 'the event delivered', timeoutMs: 20_000 });
    expect([...secrets.values()]).toContain(rx.at(t)[0]!.headers['x-api-key']);
    await waitFor(
      async () => ((await call('GET', `/v1/webhooks/${subId}/deliveries`)) as unknown as unknown[]).length >= 1,
      { what: 'the delivery recorded', timeoutMs: 20_000, intervalMs: 200 },
    );
  }

  // The headers replaced by a PUT; a test send and resends, plainly and idempotently, with them.
  const [[firstTarget, firstSub]] = targets as [[string, string]];
  const replaced = {
    Authorization: `Bearer ${randomName('authz2')}`,
    'X-Api-Key': randomName('apikey2'),
    Cookie: `sid=${randomName('cookie2')}`,
  };
  for (const [name, value] of Object.entries(replaced)) secrets.set(`replaced subscription header ${name}`, value);
  await call('PUT', `/v1/webhooks/${firstSub}`, { headers: replaced });
  const [delivery] = (await call('GET', `/v1/webhooks/${firstSub}/deliveries`)) as unknown as { id: string }[];
  for (const idem of [false, true]) {
    expect((await call('POST', `/v1/webhooks/${firstSub}/test`, { message: 'dump' }, idem)).status).toBeLessThan(300);
    await call('POST', `/v1/webhooks/${firstSub}/deliveries/${delivery!.id}/resend`, undefined, idem);
  }
  await waitFor(() => rx.at(firstTarget).length >= 4, {
    what: 'the test sends and resends delivered',
    timeoutMs: 20_000,
  });
  expect(rx.at(firstTarget).at(-1)!.headers['x-api-key']).toBe(replaced['X-Api-Key']);
  await waitFor(
    async () =>
      ((await call('GET', `/v1/webhooks/${firstSub}/deliveries`)) as unknown as { outcome: string }[]).every(
        (d) => d.outcome !== 'pending',
      ),
    {
      what: 'the resends recorded',
      timeoutMs: 20_000,
      intervalMs: 200,
    },
  );

  // The password changed last (the account's credentials stop working).
  const newPassword = `pw-${randomName('changed')}`;
  secrets.set('the changed password', newPassword);
  expect(
    (await stack.request(acct, 'PUT', '/v1/users/me/password', { current: acct.password, new: newPassword })).status,
  ).toBeLessThan(300);

  const all = dumpDatabase(stack.databaseUrl);
  // The dump is real: what is not secret is there in clear, the token addresses included.
  for (const m of markers) expect(all, `marker ${m}`).toContain(m);
  expect(all).toMatch(/COPY \w+\.idempotency_keys /);
  // No secret is: each value searched as it is, and in its base64 and hex forms.
  const found: string[] = [];
  for (const [what, value] of secrets) {
    expect(value.length, what).toBeGreaterThan(8);
    const forms = [value, Buffer.from(value).toString('base64'), Buffer.from(value).toString('hex')];
    const hit = forms.find((f) => all.includes(f));
    if (hit)
      found.push(
        `${what}: ${all
          .split('\n')
          .find((l) => l.includes(hit))
          ?.slice(0, 300)}`,
      );
  }
  expect(found, `secrets in clear in the dump:\n${found.join('\n')}`).toEqual([]);
}, 60_000);
