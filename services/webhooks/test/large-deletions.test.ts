// Deleting an account takes its subscriptions of both levels, its applications and its addresses
// with it; deleting a subscription with a very large number of delivery records answers at once
// and the records go in the background.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addNumbers } from '@switchboard/applications/numbers';
import {
  fillDeliveries as fillRecords,
  queryDatabase,
  runNpmScript,
  startServices,
  waitFor,
  type Services,
  type TestAccount,
} from '../../../test/support';
import { codeOf } from './harness';

let h: Services<{ gateway: true; webhooks: true }>;
beforeAll(async () => {
  // A short credential cache: a deleted account's cached credentials stop working within a second.
  h = await startServices({
    gateway: true,
    webhooks: true,
    env: { DELIVERY_ALLOWED_CIDRS: '127.0.0.1/32', AUTH_CACHE_TTL_MS: '1000' },
  });
}, 120_000);
afterAll(async () => h?.stop());

const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  queryDatabase<T>(h.databaseUrl, text, params);
const hook = { event: 'smsdlr', resource: 'sms', targetUrl: 'https://example.com/hook' };
const idOf = async (res: Response) => {
  expect(res.status).toBe(200);
  return ((await res.json()) as { href: string }).href.split('/').pop()!;
};
const npm = (script: string, ...args: string[]) =>
  runNpmScript(script, args, { DATABASE_URL: h.databaseUrl, LOG_LEVEL: 'warn' });

const fillDeliveries = (subscriptionId: string, accountId: string, n: number) =>
  fillRecords(h.databaseUrl, subscriptionId, accountId, n);
const recordsOf = async (subscriptionId: string) =>
  Number(
    (
      await sql<{ n: string }>(`select count(*) as n from webhooks.deliveries where subscription_id = $1`, [
        subscriptionId,
      ])
    )[0]!.n,
  );

describe('npm run account -- delete', () => {
  it('when an account is deleted, then its subscriptions of both levels, its applications and its addresses go; numbers return to the inventory', async () => {
    const owner: TestAccount = await h.createAccount('doomed');
    const other: TestAccount = await h.createAccount('bystander');
    const numbers = ['+13125550170', '+13125550171', '+13125550172'];
    await addNumbers(h.applications.app.orm.em.fork(), numbers, {
      city: 'Chicago',
      state: 'IL',
      country: 'US',
      smsEnabled: true,
    });

    const app = await idOf(
      await h.request(owner, 'POST', '/v1/applications', { name: 'doomed app', voiceUrl: 'https://example.com/voice' }),
    );
    const otherApp = await idOf(
      await h.request(other, 'POST', '/v1/applications', { name: 'kept app', voiceUrl: 'https://example.com/voice' }),
    );
    const accountLevel = await idOf(await h.request(owner, 'POST', '/v1/webhooks', hook));
    const appLevel = await idOf(await h.request(owner, 'POST', `/v1/applications/${app}/webhooks`, hook));
    const kept = await idOf(await h.request(other, 'POST', '/v1/webhooks', hook));
    expect(
      (await h.request(owner, 'POST', `/v1/applications/${app}/addresses`, { type: 'number', number: numbers[0] }))
        .status,
    ).toBe(200);
    expect(
      (await h.request(owner, 'POST', `/v1/applications/${app}/addresses`, { type: 'token', channel: 'Voice' })).status,
    ).toBe(200);
    expect((await h.request(owner, 'POST', `/v1/applications/${app}/addresses`, { type: 'sip' })).status).toBe(200);
    expect(
      (await h.request(other, 'POST', `/v1/applications/${otherApp}/addresses`, { type: 'number', number: numbers[1] }))
        .status,
    ).toBe(200);
    await fillDeliveries(accountLevel, owner.id, 50);

    const deleted = await npm('account', 'delete', '--username', owner.username);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(JSON.parse(deleted.stdout.trim())).toMatchObject({ deleted: owner.username, applications: 1 });

    // The webhooks service hears of it through the outbox and JetStream.
    const gone = async (id: string) =>
      (await codeOf(h.webhooks.client.getSubscription({ accountId: owner.id, id }))) === 'not_found';
    await waitFor(async () => (await gone(accountLevel)) && (await gone(appLevel)), {
      what: 'subscriptions of the deleted account gone',
      timeoutMs: 20_000,
    });
    expect((await h.webhooks.client.listSubscriptions({ accountId: owner.id })).subscriptions).toEqual([]);
    expect(await sql(`select id from webhooks.subscriptions where account_id = $1`, [owner.id])).toEqual([]);
    await waitFor(async () => (await recordsOf(accountLevel)) === 0, {
      what: 'its delivery records swept',
      timeoutMs: 20_000,
    });
    // Its credentials no longer open anything once the gateway's cache entry expires.
    await waitFor(async () => (await h.request(owner, 'GET', '/v1/applications')).status === 401, {
      what: 'credentials refused',
      timeoutMs: 10_000,
    });

    // Numbers: its own free again, the other account's untouched; its token and SIP address gone.
    const inventory = (await npm('numbers', 'list')).stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { number: string; applicationId: string | null });
    const holder = (n: string) => inventory.find((e) => e.number === n)?.applicationId;
    expect(holder(numbers[0]!)).toBeNull();
    expect(holder(numbers[1]!)).toBe(otherApp);
    expect(await sql(`select value from applications.addresses where application_id = $1`, [app])).toEqual([]);
    expect(JSON.stringify(await h.listAll(other, '/v1/addresses?available&prefix=1312'))).toContain('13125550170');

    // The other account keeps everything.
    expect((await h.request(other, 'GET', `/v1/webhooks/${kept}`)).status).toBe(200);
    expect((await h.request(other, 'GET', `/v1/applications/${otherApp}`)).status).toBe(200);
  }, 120_000);
});

describe('deleting a subscription with a great many delivery records', () => {
  const rows = Number(process.env.SWEEP_TEST_ROWS ?? 300_000);

  it(`when a subscription with ${rows} delivery records is deleted, then the API answers at once and the records go in the background`, async () => {
    const me = await h.createAccount('bulk');
    const id = await idOf(await h.request(me, 'POST', '/v1/webhooks', hook));
    const keep = await idOf(await h.request(me, 'POST', '/v1/webhooks', hook));
    const filled = performance.now();
    await fillDeliveries(id, me.id, rows);
    await fillDeliveries(keep, me.id, 10);
    const fillMs = performance.now() - filled;

    const t = performance.now();
    const res = await h.request(me, 'DELETE', `/v1/webhooks/${id}`);
    const deleteMs = performance.now() - t;
    expect(res.status).toBe(200);
    expect((await h.request(me, 'GET', `/v1/webhooks/${id}`)).status).toBe(404);
    expect((await h.request(me, 'GET', `/v1/webhooks/${id}/deliveries`)).status).toBe(404);

    const swept = performance.now();
    await waitFor(async () => (await recordsOf(id)) === 0, {
      what: 'records swept',
      timeoutMs: 600_000,
      intervalMs: 250,
    });
    const sweepMs = performance.now() - swept;
    console.log(
      JSON.stringify({
        rows,
        fillMs: Math.round(fillMs),
        deleteMs: Math.round(deleteMs),
        sweepMs: Math.round(sweepMs),
      }),
    );
    expect(await recordsOf(keep)).toBe(10);
    expect(await sql(`select 1 from webhooks.delivery_purges`)).toEqual([]);
  }, 900_000);

  it('when the service stopped with a purge half done, then it finishes it after a restart', async () => {
    const me = await h.createAccount('restart');
    const id = await idOf(await h.request(me, 'POST', '/v1/webhooks', hook));
    await h.webhooks.stop();
    // What a deletion committed just before the stop leaves: the subscription gone, its purge queued.
    await fillDeliveries(id, me.id, 12_000);
    await sql(`delete from webhooks.subscriptions where id = $1`, [id]);
    await sql(`insert into webhooks.delivery_purges (subscription_id) values ($1)`, [id]);
    h.webhooks = await h.startWebhooks();
    await waitFor(async () => (await recordsOf(id)) === 0, { what: 'purge finished after restart', timeoutMs: 30_000 });
    expect(await sql(`select 1 from webhooks.delivery_purges`)).toEqual([]);
  }, 120_000);
});
