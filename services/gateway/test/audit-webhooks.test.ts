// The audit entries of the changes the webhooks service owns, through the real gateway, webhooks
// and applications services, a dispatcher, Postgres and NATS: one entry per action with its actor,
// target and outcome; a change rolled back leaves no entry; another account never sees them; and
// GET /v1/audit-events merges both services' entries newest first, every entry once across pages.
import { describe, expect, it } from 'vitest';
import {
  queryDatabase,
  randomName,
  useDeliveryStack,
  waitFor,
  type JsonBody,
  type Receiver,
  type Services,
  type TestAccount,
} from '../../../test/support';
import { consoleSignIn } from './harness';
import type { AuditEventBody } from '../src/http/response-bodies';

let stack: Services<{ gateway: true; webhooks: true; dispatcher: true }>;
let rx: Receiver;
let alice: TestAccount, bob: TestAccount;

useDeliveryStack(
  {
    gateway: true,
    dispatcher: true,
    env: { TEST_REPLY_TIMEOUT_MS: '4000' },
    dispatcherEnv: { DELIVERY_RETRY_SCHEDULE: '100ms', DELIVERY_TIMEOUT_MS: '2000', RECORD_FLUSH_INTERVAL: '20ms' },
  },
  (f) =>
    ({
      stack,
      rx,
      accounts: [alice, bob],
    } = f),
  ['alice', 'bob'],
);

/** An entry of GET /v1/audit-events. */
type Entry = AuditEventBody;
const json = async (res: Response) => (await res.json()) as Record<string, JsonBody>;
const log = async (account: TestAccount, query = '') => {
  const res = await stack.request(account, 'GET', `/v1/audit-events${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Entry[];
};

async function hook(account: TestAccount, headers?: Record<string, string>, name?: string): Promise<string> {
  const res = await stack.request(
    headers ? undefined : account,
    'POST',
    '/v1/webhooks',
    { event: 'cdrCreated', resource: 'all', targetUrl: rx.url(`/audit/${randomName('t')}`), ...(name ? { name } : {}) },
    headers,
  );
  expect(res.status).toBe(200);
  return ((await json(res)).href as string).split('/').pop()!;
}

describe('audit entries of webhook subscriptions and delivery tools', () => {
  it('when a subscription is created, updated, disabled, its secret read and rotated, tested, a delivery resent, recovered and deleted, then one entry each with its actor, target and outcome', async () => {
    const carol = await stack.createAccount('carol');
    const key = await json(await stack.request(carol, 'POST', '/v1/api-keys', { name: 'ops', scope: 'full' }));
    const bearer = { authorization: `Bearer ${key.key}` };
    const session = { cookie: (await consoleSignIn(stack, carol)).cookie, origin: stack.baseUrl };

    const id = await hook(carol);
    const path = `/v1/webhooks/${id}`;
    const base = `${stack.baseUrl}${path}`;
    const updated = await stack.request(undefined, 'PUT', path, { name: 'billing' }, bearer);
    expect(updated.status).toBe(200);
    expect((await stack.request(undefined, 'PUT', path, { enabled: false }, session)).status).toBe(200);
    expect((await stack.request(carol, 'PUT', path, { enabled: true })).status).toBe(200);
    expect((await stack.request(undefined, 'GET', `${path}/secret`, undefined, bearer)).status).toBe(200);
    expect((await stack.request(undefined, 'POST', `${path}/secret/rotate`, undefined, session)).status).toBe(200);
    const tested = await json(await stack.request(carol, 'POST', `${path}/test`));
    // A delivery of an event, then resent.
    await stack.publish('cdr.created', {
      id: randomName('evt'),
      accountId: carol.id,
      resource: 'call',
      timestamp: '2026-03-01T10:00:00.000Z',
      data: { n: 1 },
    });
    const deliveries = async () =>
      (await json(await stack.request(carol, 'GET', `${path}/deliveries`))) as unknown as {
        id: string;
        trigger: string;
      }[];
    await waitFor(async () => (await deliveries()).some((d) => d.trigger === 'event'), { what: 'delivery recorded' });
    const delivery = (await deliveries()).find((d) => d.trigger === 'event')!;
    const resent = await stack.request(
      undefined,
      'POST',
      `${path}/deliveries/${delivery.id}/resend`,
      undefined,
      bearer,
    );
    expect(resent.status).toBe(202);
    const recovered = await stack.request(carol, 'POST', `${path}/recover`, {
      since: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(recovered.status).toBe(202);
    const deleted = await stack.request(undefined, 'DELETE', path, undefined, session);
    expect(deleted.status).toBe(200);

    const entries = (await log(carol)).filter((e) => e.action !== 'api-key.create');
    expect(entries.map((e) => `${e.action} ${e.actor.type} ${e.outcome}`)).toEqual([
      'webhook.delete session success',
      'webhook.recover password success',
      'delivery.resend key success',
      'webhook.test password success',
      'webhook.secret.rotate session success',
      'webhook.secret.read key success',
      'webhook.update password success',
      'webhook.update session success',
      'webhook.update key success',
      'webhook.create password success',
      'session.sign-in password success',
    ]);
    const [del, recover, resend, test, rotate, read, , disable, update, create] = entries;
    expect(create).toMatchObject({ actor: { type: 'password', id: carol.id, name: carol.username }, target: base });
    expect(update).toMatchObject({
      actor: { type: 'key', id: key.id, name: 'ops' },
      target: base,
      ip: '127.0.0.1',
      requestId: updated.headers.get('x-request-id'),
    });
    expect(disable!.actor.id).toMatch(/^cs_/);
    expect(read).toMatchObject({ target: `${base}/secret`, actor: { type: 'key', id: key.id } });
    expect(rotate).toMatchObject({ target: `${base}/secret`, actor: { type: 'session', id: disable!.actor.id } });
    expect(test!.target).toBe(tested.href);
    expect(resend!.target).toBe((await json(resent)).href);
    expect(recover!.target).toBe((await json(recovered)).href);
    expect(del).toMatchObject({ target: base, requestId: deleted.headers.get('x-request-id') });
    // The ids of the two services' entries never collide.
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
  });

  it('when a change fails or is rolled back, then it leaves no entry, and the change did not happen', async () => {
    const dave = await stack.createAccount('dave');
    const id = await hook(dave, undefined, 'fail-delete');
    // Checks that fail in the transaction: no entry.
    expect((await stack.request(dave, 'PUT', `/v1/webhooks/${id}`, { event: 'cdrRated' })).status).toBe(409);
    expect((await stack.request(bob, 'DELETE', `/v1/webhooks/${id}`)).status).toBe(404);
    expect((await stack.request(bob, 'GET', `/v1/webhooks/${id}/secret`)).status).toBe(404);
    // A fault at commit, after the entry was written: the change and its entry roll back together.
    await queryDatabase(
      stack.databaseUrl,
      `create or replace function webhooks.audit_test_fault() returns trigger language plpgsql as $$
       begin
         if (tg_op = 'INSERT' and new.name = 'fail-insert') or (tg_op = 'UPDATE' and new.name = 'fail-update')
            or (tg_op = 'DELETE' and old.name = 'fail-delete') then
           raise exception 'injected fault';
         end if;
         return null;
       end $$;
       create constraint trigger audit_test_fault after insert or update or delete on webhooks.subscriptions
         deferrable initially deferred for each row execute function webhooks.audit_test_fault();`,
    );
    try {
      const create = await stack.request(dave, 'POST', '/v1/webhooks', {
        event: 'cdrCreated',
        resource: 'all',
        targetUrl: rx.url('/audit/fail'),
        name: 'fail-insert',
      });
      expect(create.status).toBe(500);
      expect((await stack.request(dave, 'PUT', `/v1/webhooks/${id}`, { name: 'fail-update' })).status).toBe(500);
      expect((await stack.request(dave, 'DELETE', `/v1/webhooks/${id}`)).status).toBe(500);
    } finally {
      await queryDatabase(stack.databaseUrl, 'drop trigger audit_test_fault on webhooks.subscriptions');
    }
    const subs = (await json(await stack.request(dave, 'GET', '/v1/webhooks'))) as unknown as { name?: string }[];
    expect(subs.map((s) => s.name)).toEqual(['fail-delete']);
    expect((await log(dave)).map((e) => e.action)).toEqual(['webhook.create']);
  });

  it("when another account reads the log, then it sees none of this account's webhook entries", async () => {
    const id = await hook(alice);
    expect((await stack.request(alice, 'GET', `/v1/webhooks/${id}/secret`)).status).toBe(200);
    expect((await log(alice)).map((e) => e.action)).toEqual(['webhook.secret.read', 'webhook.create']);
    expect(await log(bob)).toEqual([]);
    const rows = await queryDatabase<{ account_id: string }>(
      stack.databaseUrl,
      'select account_id::text from webhooks.audit_events where account_id = $1',
      [bob.id],
    );
    expect(rows).toEqual([]);
  });

  it('when both services have entries, then the merged log is newest first and every page size returns every entry exactly once, in order; filters apply to both', async () => {
    const erin = await stack.createAccount('erin');
    const appId = await stack.newApplication(erin.id);
    for (let i = 0; i < 4; i++) {
      expect((await stack.request(erin, 'POST', '/v1/api-keys', { name: `k${i}`, scope: 'read' })).status).toBe(200);
      const id = await hook(erin);
      expect((await stack.request(erin, 'PUT', `/rest/v1/applications/${appId}`, { name: `a${i}` })).status).toBe(200);
      expect((await stack.request(erin, 'PUT', `/v1/webhooks/${id}`, { name: `w${i}` })).status).toBe(200);
    }
    const all = await log(erin);
    expect(all.length).toBeGreaterThanOrEqual(16);
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
    expect([...all].sort((a, b) => b.at.localeCompare(a.at)).map((e) => e.id)).toEqual(all.map((e) => e.id));
    expect(all.slice(0, 4).map((e) => e.action)).toEqual([
      'webhook.update',
      'application.update',
      'webhook.create',
      'api-key.create',
    ]);
    for (const size of [1, 2, 3, 5, all.length, all.length + 1]) {
      const paged = await stack.listAll<Entry>(erin, `/v1/audit-events?limit=${size}`);
      expect(paged.map((e) => e.id)).toEqual(all.map((e) => e.id));
    }
    // The last page links to nothing further.
    const whole = await stack.request(erin, 'GET', `/v1/audit-events?limit=${all.length}`);
    expect(whole.headers.get('link')).toBeNull();
    const short = await stack.request(erin, 'GET', `/v1/audit-events?limit=${all.length - 1}`);
    expect(short.headers.get('link')).toMatch(/rel="next"/);
    // Filters apply to both services' entries.
    expect((await log(erin, '?action=webhook.update')).map((e) => e.id)).toEqual(
      all.filter((e) => e.action === 'webhook.update').map((e) => e.id),
    );
    expect((await log(erin, `?actor=${erin.id}`)).map((e) => e.id)).toEqual(all.map((e) => e.id));
    const middle = all[8]!.at;
    expect((await log(erin, `?until=${encodeURIComponent(middle)}&limit=3`)).every((e) => e.at < middle)).toBe(true);
    const since = await stack.listAll<Entry>(erin, `/v1/audit-events?since=${encodeURIComponent(middle)}&limit=2`);
    expect(since.map((e) => e.id)).toEqual(all.filter((e) => e.at >= middle).map((e) => e.id));
    // A cursor this API did not return is a 400.
    const bad = await stack.request(erin, 'GET', '/v1/audit-events?limit=2&cursor=bm90LWEtY3Vyc29y');
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('when an account is deleted, then the webhooks service drops its entries with its subscriptions', async () => {
    const frank = await stack.createAccount('frank');
    await hook(frank);
    const rows = () =>
      queryDatabase(stack.databaseUrl, 'select 1 from webhooks.audit_events where account_id = $1', [frank.id]);
    expect(await rows()).toHaveLength(1);
    await stack.publish('accounts.deleted', { accountId: frank.id });
    await waitFor(async () => (await rows()).length === 0, { what: 'entries dropped' });
  });

  it('when the webhooks service is down, then the log answers 503 instead of half of it', async () => {
    await hook(alice);
    await stack.webhooks.stop();
    try {
      const res = await stack.request(alice, 'GET', '/v1/audit-events');
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    } finally {
      await stack.webhooks.start();
    }
    await waitFor(async () => (await stack.request(alice, 'GET', '/v1/audit-events')).status === 200, {
      what: 'log readable again',
    });
  });
});
