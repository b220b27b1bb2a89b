// `npm run account` against the real stack: a key it revokes, or an account it deletes, is refused
// by a gateway that had the credentials cached within a second of the command's end (the command
// announces it on NATS like the API does), not when the gateway's cache expires.
import { describe, expect, it } from 'vitest';
import { runNpmScript, waitFor, type Services, type TestAccount } from '../../../test/support';
import { useGatewayStack } from './harness';

let stack: Services<{ gateway: true }>;
let alice: TestAccount;

// Caches of a minute: only the announcement can make the gateway forget within a second.
useGatewayStack({ env: { API_KEY_CACHE_TTL_MS: '60000', AUTH_CACHE_TTL_MS: '60000' } }, (f) => ({ stack, alice } = f));

const account = (...args: string[]) => runNpmScript('account', args, stack.env);
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const read = (headers: Record<string, string>) => fetch(`${stack.baseUrl}/v1/applications`, { headers });

async function createKey(owner: TestAccount): Promise<{ id: string; key: string }> {
  const res = await stack.request(owner, 'POST', '/v1/api-keys', { name: 'ci', scope: 'full' });
  expect(res.status).toBe(200);
  return (await res.json()) as { id: string; key: string };
}

/** Waits (at most a second from now) until the request is refused. */
async function refusedWithinASecond(headers: Record<string, string>, what: string): Promise<void> {
  const from = Date.now();
  await waitFor(async () => (await read(headers)).status === 401, { timeoutMs: 1000, intervalMs: 20, what });
  expect(Date.now() - from).toBeLessThan(1000);
}

describe('npm run account announces what it revokes', () => {
  it('when the command revokes a key the gateway had cached, then the gateway refuses it within a second', async () => {
    const { id, key } = await createKey(alice);
    expect((await read(bearer(key))).status).toBe(200);
    expect((await read(bearer(key))).status).toBe(200);

    const revoked = await account('keys', 'revoke', '--username', alice.username, '--id', id);
    expect(revoked.stderr).toBe('');
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout)).toEqual({ revoked: id });
    await refusedWithinASecond(bearer(key), 'the revoked key refused');
    // The account's password and its other keys still work.
    expect((await read({ authorization: alice.authorization })).status).toBe(200);
  }, 120_000);

  it('when the command deletes an account, then the gateway refuses its cached password and key within a second', async () => {
    const erin = await stack.createAccount('erin');
    const { key } = await createKey(erin);
    expect((await read(bearer(key))).status).toBe(200);
    expect((await read({ authorization: erin.authorization })).status).toBe(200);

    const deleted = await account('delete', '--username', erin.username);
    expect(deleted.code).toBe(0);
    expect(deleted.stderr).toBe('');
    await refusedWithinASecond({ authorization: erin.authorization }, "the deleted account's password refused");
    expect((await read(bearer(key))).status).toBe(401);
  }, 120_000);
});
