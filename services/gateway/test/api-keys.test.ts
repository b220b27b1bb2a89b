// API keys through the real gateway, the applications service, Postgres and NATS: creating (the key
// shown once), listing and reading without the key, both scopes with Bearer and Basic, 401 for
// unknown and revoked keys, the limit of 50, lastUsedAt, the keyed hash at rest, and a revocation
// reaching a second gateway replica (which had the key in its cache) within a second.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  queryDatabase,
  sleep,
  waitFor,
  type RunningGateway,
  type Services,
  type TestAccount,
  type JsonBody,
} from '../../../test/support';
import { consoleSignIn, useGatewayStack } from './harness';

let stack: Services<{ gateway: true }>;
let alice: TestAccount;
let bob: TestAccount;
/** A second gateway replica against the same services. */
let second: RunningGateway;

// A minute-long cache of verified keys: only the revocation notice can make a replica forget one.
// Every request of this file comes from one address, whose refused keys (more than the default
// burst of 20) count against one budget of failed logins for both replicas together.
useGatewayStack(
  { env: { API_KEY_CACHE_TTL_MS: '60000', AUTH_ADDRESS_FAILURES_BURST: '200' } },
  (f) => ({ stack, alice, bob } = f),
);
beforeAll(async () => {
  second = await stack.startGateway();
});

const json = async (res: Response) => (await res.json()) as Record<string, JsonBody>;
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const basic = (u: string, p: string) => ({ authorization: `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}` });
/** A request with the given headers instead of an account's password (checked against the OpenAPI document). */
const send = (headers: Record<string, string>, method: string, path: string, body?: unknown) =>
  stack.request(undefined, method, path, body, headers);

async function createKey(
  account: TestAccount,
  scope: 'full' | 'read',
  name = `${scope} key`,
): Promise<{ id: string; key: string; href: string }> {
  const res = await stack.request(account, 'POST', '/v1/api-keys', { name, scope });
  expect(res.status).toBe(200);
  return json(res) as Promise<{ id: string; key: string; href: string }>;
}

describe('API keys', () => {
  it('when a key is created, then it is answered once; list and read show its prefix but never the key, and the database holds only a hash', async () => {
    const res = await stack.request(alice, 'POST', '/v1/api-keys', { name: 'ci', scope: 'full' });
    expect(res.status).toBe(200);
    const created = await json(res);
    expect(created).toMatchObject({ href: `${stack.baseUrl}/v1/api-keys/${created.id}`, name: 'ci', scope: 'full' });
    expect(created.key).toMatch(/^sbk_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(created.key.slice(4), 'base64url')).toHaveLength(32);

    const one = await json(await stack.request(alice, 'GET', `/v1/api-keys/${created.id}`));
    expect(one).toEqual({
      href: created.href,
      id: created.id,
      name: 'ci',
      scope: 'full',
      prefix: created.key.slice(0, 8),
      createdAt: created.createdAt,
      lastUsedAt: null,
    });
    const list = await json(await stack.request(alice, 'GET', '/v1/api-keys'));
    expect(list.map((k: { id: string }) => k.id)).toContain(created.id);
    expect(JSON.stringify(list)).not.toContain(created.key);

    const rows = await queryDatabase<{ key_hash: Buffer }>(
      stack.databaseUrl,
      'select key_hash from applications.api_keys where id = $1',
      [created.id],
    );
    expect(rows[0]!.key_hash).toHaveLength(32);
    const dump = JSON.stringify(await queryDatabase(stack.databaseUrl, 'select * from applications.api_keys'));
    expect(dump).not.toContain(created.key);
    expect(dump).not.toContain(created.key.slice(4));
  });

  it('when a full key is used as Bearer or as Basic with its id, then it reads and writes as the account', async () => {
    const { id, key } = await createKey(alice, 'full');
    for (const headers of [bearer(key), basic(id, key)]) {
      const created = await send(headers, 'POST', '/v1/applications', {
        name: 'by key',
        voiceUrl: 'https://example.com/voice',
      });
      expect(created.status).toBe(200);
      const href = (await json(created)).href as string;
      const read = await send(headers, 'GET', new URL(href).pathname);
      expect(read.status).toBe(200);
      expect((await json(read)).name).toBe('by key');
      // Another account's password sees nothing of it.
      expect((await stack.request(bob, 'GET', new URL(href).pathname)).status).toBe(404);
    }
    // Basic with another key's id is refused.
    const other = await createKey(alice, 'full');
    expect((await send(basic(other.id, key), 'GET', '/v1/applications')).status).toBe(401);
  });

  it('when a read key is used, then every GET answers and anything else is 403 insufficient_scope', async () => {
    const { id, key } = await createKey(alice, 'read');
    const appId = await stack.newApplication(alice.id);
    for (const headers of [bearer(key), basic(id, key)]) {
      expect((await send(headers, 'GET', '/v1/applications')).status).toBe(200);
      expect((await send(headers, 'GET', `/rest/v1/applications/${appId}`)).status).toBe(200);
      expect((await send(headers, 'GET', '/v1/api-keys')).status).toBe(200);
      for (const [method, path, body] of [
        ['POST', '/v1/applications', { name: 'x', voiceUrl: 'https://example.com/voice' }],
        ['PUT', `/v1/applications/${appId}`, { name: 'renamed' }],
        ['DELETE', `/v1/applications/${appId}`, undefined],
        ['POST', '/v1/api-keys', { name: 'escalate', scope: 'full' }],
      ] as const) {
        const res = await send(headers, method, path, body);
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(await json(res)).toMatchObject({ status: 403, code: 'insufficient_scope' });
      }
    }
    expect((await stack.request(alice, 'GET', `/rest/v1/applications/${appId}`)).status).toBe(200);
  });

  it('when a key is unknown, malformed or revoked, then 401', async () => {
    const unknown = `sbk_${Buffer.alloc(32, 7).toString('base64url')}`;
    expect((await send(bearer(unknown), 'GET', '/v1/applications')).status).toBe(401);
    expect((await send(bearer('sbk_short'), 'GET', '/v1/applications')).status).toBe(401);
    const { id, key } = await createKey(alice, 'full');
    expect((await send(bearer(key), 'GET', '/v1/applications')).status).toBe(200);
    expect((await stack.request(alice, 'DELETE', `/v1/api-keys/${id}`)).status).toBe(204);
    expect((await send(bearer(key), 'GET', '/v1/applications')).status).toBe(401);
    expect((await send(basic(id, key), 'GET', '/v1/applications')).status).toBe(401);
    expect((await stack.request(alice, 'GET', `/v1/api-keys/${id}`)).status).toBe(404);
  });

  it("when an application is read by id with a Bearer key, then the same answer as with the password and another account's application 404", async () => {
    const { key } = await createKey(alice, 'read');
    const mine = await stack.newApplication(alice.id);
    const bobs = await stack.newApplication(bob.id);
    for (const path of [`/v1/applications/${mine}`, `/rest/v1/applications/${mine}`]) {
      const withKey = await send(bearer(key), 'GET', path);
      expect(withKey.status, path).toBe(200);
      expect(await json(withKey)).toEqual(await json(await stack.request(alice, 'GET', path)));
    }
    for (const other of [bobs, 'not-an-id']) {
      const res = await send(bearer(key), 'GET', `/v1/applications/${other}`);
      expect(res.status, other).toBe(404);
      expect(await json(res)).toMatchObject({ status: 404, code: 'not_found' });
    }
    const unknown = `sbk_${Buffer.alloc(32, 9).toString('base64url')}`;
    expect((await send(bearer(unknown), 'GET', `/v1/applications/${mine}`)).status).toBe(401);
  });

  it('when a key is revoked, then every route refuses it on the replica that revoked it from the answer on, and on the other replica within a second, whatever either had cached', async () => {
    const { id, key } = await createKey(alice, 'full');
    const mine = await stack.newApplication(alice.id);
    const routes: [string, string, unknown?][] = [
      ['GET', `/v1/applications/${mine}`],
      ['GET', `/rest/v1/applications/${mine}`],
      ['GET', '/v1/applications'],
      ['GET', '/v1/api-keys'],
      ['POST', '/v1/applications', { name: 'made-with-a-key', voiceUrl: 'https://example.com/v' }],
    ];
    const on = (base: string, [method, path, body]: [string, string, unknown?]) =>
      fetch(`${base}${path}`, {
        method,
        headers: { ...bearer(key), ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    // Both replicas verify the key on every route (and remember it for a minute).
    for (const base of [stack.baseUrl, second.baseUrl])
      for (const r of routes) expect((await on(base, r)).status, `${base} ${r[1]}`).toBe(200);
    // Requests with the key keep arriving at the revoking replica while the revocation is made.
    const during = Promise.all(Array.from({ length: 20 }, (_, i) => on(stack.baseUrl, routes[i % 4]!)));
    const revoked = Date.now();
    expect((await stack.request(alice, 'DELETE', `/v1/api-keys/${id}`)).status).toBe(204);
    // Meanwhile the other replica is asked, route by route, until it refuses the key: by when the
    // first refused request was sent (its answer may take longer on a loaded machine).
    const other = Promise.all(
      routes.map(async (r) => {
        for (;;) {
          const sent = Date.now();
          if ((await on(second.baseUrl, r)).status === 401) return sent - revoked;
          if (sent - revoked > 5000) return Number.POSITIVE_INFINITY;
          await sleep(20);
        }
      }),
    ).then((times) => Math.max(...times));
    for (const r of routes) {
      const res = await on(stack.baseUrl, r);
      expect(res.status, r[1]).toBe(401);
      expect(await json(res)).toMatchObject({ status: 401, code: 'unauthenticated' });
    }
    await during;
    for (const r of routes) expect((await on(stack.baseUrl, r)).status, `after the rush ${r[1]}`).toBe(401);
    expect(await other).toBeLessThan(1000);
  });

  it('when another account reads or revokes a key, then 404 and the key keeps working', async () => {
    const { id, key } = await createKey(alice, 'full');
    expect((await stack.request(bob, 'GET', `/v1/api-keys/${id}`)).status).toBe(404);
    expect((await stack.request(bob, 'DELETE', `/v1/api-keys/${id}`)).status).toBe(404);
    expect((await send(bearer(key), 'GET', '/v1/applications')).status).toBe(200);
  });

  it('when a key is used, then its lastUsedAt is set to about now', async () => {
    const { id, key } = await createKey(alice, 'read');
    const before = Date.now();
    expect((await fetch(`${second.baseUrl}/v1/applications`, { headers: bearer(key) })).status).toBe(200);
    const used = await waitFor(
      async () =>
        (await json(await stack.request(alice, 'GET', `/v1/api-keys/${id}`))).lastUsedAt as string | undefined,
      { what: 'lastUsedAt' },
    );
    expect(Date.parse(used)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(used)).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it('when a key is revoked through one gateway, then within a second the other replica, which had it cached, refuses it', async () => {
    const { id, key } = await createKey(alice, 'full');
    // Both replicas verify the key (and remember it for a minute).
    expect((await send(bearer(key), 'GET', '/v1/applications')).status).toBe(200);
    await waitFor(
      async () => (await fetch(`${second.baseUrl}/v1/applications`, { headers: bearer(key) })).status === 200,
      { what: 'second replica accepts the key' },
    );
    expect((await fetch(`${second.baseUrl}/v1/applications`, { headers: bearer(key) })).status).toBe(200);

    const revoked = Date.now();
    expect((await stack.request(alice, 'DELETE', `/v1/api-keys/${id}`)).status).toBe(204);
    await waitFor(
      async () => (await fetch(`${second.baseUrl}/v1/applications`, { headers: bearer(key) })).status === 401,
      { timeoutMs: 1000, intervalMs: 20, what: 'second replica refuses the revoked key' },
    );
    expect(Date.now() - revoked).toBeLessThan(1000);
    expect((await send(bearer(key), 'GET', '/v1/applications')).status).toBe(401);
  });

  it('when an account has 50 keys, then the next create is 409 limit_exceeded, and a revocation makes room', async () => {
    const carol = await stack.createAccount('carol');
    const results = await Promise.all(
      Array.from({ length: 52 }, (_, i) =>
        stack.request(carol, 'POST', '/v1/api-keys', { name: `k${i}`, scope: 'read' }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(50);
    expect(statuses.filter((s) => s === 409)).toHaveLength(2);
    const refused = results.find((r) => r.status === 409)!;
    expect((await json(refused)).code).toBe('limit_exceeded');
    const list = await json(await stack.request(carol, 'GET', '/v1/api-keys'));
    expect(list).toHaveLength(50);
    expect((await stack.request(carol, 'DELETE', `/v1/api-keys/${list[0].id}`)).status).toBe(204);
    expect((await stack.request(carol, 'POST', '/v1/api-keys', { name: 'again', scope: 'read' })).status).toBe(200);
  });

  it('when the account is deleted, then its keys stop working on every replica (the one that had a key cached too) and its browser sessions end', async () => {
    const { deleteAccount } = await import('../../applications/src/accounts/delete-account');
    const erin = await stack.createAccount('erin');
    const { key } = await createKey(erin, 'full');
    expect((await fetch(`${second.baseUrl}/v1/applications`, { headers: bearer(key) })).status).toBe(200);
    const { cookie } = await consoleSignIn(stack, erin);
    expect(await deleteAccount(stack.applications.app.orm.em.fork(), erin.username)).toBeDefined();
    await waitFor(
      async () => (await fetch(`${second.baseUrl}/v1/applications`, { headers: bearer(key) })).status === 401,
      { timeoutMs: 5000, what: "the deleted account's key refused" },
    );
    expect((await send(bearer(key), 'GET', '/v1/applications')).status).toBe(401);
    expect((await send({ cookie }, 'GET', '/v1/applications')).status).toBe(401);
  });

  it('when the body is wrong or missing, then 400 naming each field and what it must be', async () => {
    const both = [
      { field: 'name', message: 'must be 1-100 characters' },
      { field: 'scope', message: 'must be "full" or "read"' },
    ];
    for (const body of [{ name: '', scope: 'admin' }, { name: '   ', scope: null }, { name: 7 }, undefined]) {
      const res = await stack.request(alice, 'POST', '/v1/api-keys', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await json(res)).errors, JSON.stringify(body)).toEqual(both);
    }
    const long = await stack.request(alice, 'POST', '/v1/api-keys', { name: 'k'.repeat(101), scope: 'read' });
    expect((await json(long)).errors).toEqual([both[0]]);
  });
});
