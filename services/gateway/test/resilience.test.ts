import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startPrivatePostgres,
  startServices,
  waitFor,
  type PrivatePostgres,
  type Services,
  type TestAccount,
} from '../../../test/support';

let pg: PrivatePostgres;
let stack: Services<{ gateway: true }>;
let alice: TestAccount;

beforeAll(async () => {
  pg = await startPrivatePostgres();
  stack = await startServices({ gateway: true, databaseUrl: pg.url.replace(/\/postgres$/, '/switchboard') });
  alice = await stack.createAccount('alice');
}, 60_000);
afterAll(async () => {
  await stack?.stop();
  await pg?.destroy();
});

describe('when Postgres stops', () => {
  it('then requests answer 503 problem+json with nothing half-written, and the service recovers by itself when it is back', async () => {
    const created = await stack.request(alice, 'POST', '/v1/applications', {
      name: 'before outage',
      voiceUrl: 'https://example.com/v',
    });
    expect(created.status).toBe(200);
    const { href } = (await created.json()) as { href: string };
    const path = new URL(href).pathname;
    const newcomer = await stack.createAccount('newcomer');

    await pg.stop();
    try {
      for (const [method, p, body] of [
        ['GET', path, undefined],
        ['GET', '/v1/applications', undefined],
        ['POST', '/v1/applications', { name: 'during outage', voiceUrl: 'https://example.com/v' }],
        ['PUT', path, { name: 'changed during outage' }],
        ['DELETE', path, undefined],
      ] as const) {
        const res = await stack.request(alice, method, p, body);
        expect(res.status, `${method} ${p}`).toBe(503);
        expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        const problem = (await res.json()) as Record<string, unknown>;
        expect(problem).toMatchObject({ status: 503, code: 'unavailable' });
        expect(JSON.stringify(problem)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|select|stack/i);
      }
      // Credentials that cannot be checked are not "wrong": 503, not 401.
      const unverifiable = await stack.request(newcomer, 'GET', '/v1/applications');
      expect(unverifiable.status).toBe(503);
      // The process is alive and says it is not ready.
      const ready = await fetch(`http://127.0.0.1:${stack.applications.opsPort}/readyz`);
      expect(ready.status).toBe(503);
    } finally {
      await pg.start();
    }

    const back = await waitFor(
      async () => {
        const res = await stack.request(alice, 'GET', path);
        return res.status === 200 ? res : undefined;
      },
      { timeoutMs: 20_000, what: 'recovery' },
    );
    expect(((await back.json()) as { name: string }).name).toBe('before outage');
    const list = (await (await stack.request(alice, 'GET', '/v1/applications')).json()) as { name: string }[];
    expect(list.map((a) => a.name)).toEqual(['before outage']);
    expect(
      (
        await stack.request(alice, 'POST', '/v1/applications', {
          name: 'after outage',
          voiceUrl: 'https://example.com/v',
        })
      ).status,
    ).toBe(200);
    expect((await stack.request(newcomer, 'GET', '/v1/applications')).status).toBe(200);
  }, 60_000);
});
