// Idempotency-Key on the API's POSTs, through the real gateway, applications and webhooks services,
// Postgres and NATS: the owning service stores the first answer and answers repeats from it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdempotencyStore, poolOf } from '@switchboard/db';
import { queryDatabase, startServices, type Services, type TestAccount } from '../../../test/support';

let stack: Services<{ gateway: true; webhooks: true }>;

beforeAll(async () => {
  stack = await startServices({
    gateway: true,
    webhooks: true,
    env: { DELIVERY_ALLOWED_CIDRS: '127.0.0.0/8,::1/128' },
  });
});
afterAll(async () => stack?.stop());

const hook = { event: 'smsdlr', resource: 'sms', targetUrl: 'https://example.com/dlr' };

async function answer(res: Response): Promise<{ status: number; body: string; location: string | null }> {
  return { status: res.status, body: await res.text(), location: res.headers.get('location') };
}

const post = (account: TestAccount, path: string, body: unknown, key: string) =>
  stack.request(account, 'POST', path, body, { 'Idempotency-Key': key });

async function count(sql: string, accountId: string): Promise<number> {
  const [row] = await queryDatabase<{ n: string }>(stack.databaseUrl, sql, [accountId]);
  return Number(row!.n);
}

describe('Idempotency-Key', () => {
  it('when 20 identical subscription creates race with one key, then exactly one subscription is made and all 20 answers are identical', async () => {
    const me = await stack.createAccount('idem');
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => post(me, '/v1/webhooks', hook, 'create-hook-1').then(answer)),
    );
    expect(answers[0]!.status).toBe(200);
    for (const a of answers) expect(a).toEqual(answers[0]);
    const body = JSON.parse(answers[0]!.body) as { href: string; secret: string };
    expect(answers[0]!.location).toBe(body.href);
    expect(await count(`select count(*) as n from "webhooks".subscriptions where account_id = $1`, me.id)).toBe(1);
    const list = (await (await stack.request(me, 'GET', '/v1/webhooks')).json()) as unknown[];
    expect(list).toHaveLength(1);
  });

  it('when 20 identical application creates race with one key, then exactly one application is made and all answers are identical', async () => {
    const me = await stack.createAccount('idem');
    const app = { name: 'once', voiceUrl: 'https://example.com/voice' };
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => post(me, '/v1/applications', app, 'create-app').then(answer)),
    );
    expect(answers[0]!.status).toBe(200);
    for (const a of answers) expect(a).toEqual(answers[0]);
    const list = (await (await stack.request(me, 'GET', '/v1/applications')).json()) as unknown[];
    expect(list).toHaveLength(1);
  });

  it('when 10 identical SIP address claims race with one key, then exactly one address is made and all answers are identical', async () => {
    const me = await stack.createAccount('idem');
    const created = await stack.request(me, 'POST', '/v1/applications', {
      name: 'addr',
      voiceUrl: 'https://example.com/voice',
    });
    const appId = ((await created.json()) as { href: string }).href.split('/').pop()!;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        post(me, `/v1/applications/${appId}/addresses`, { type: 'sip' }, 'claim-sip').then(answer),
      ),
    );
    expect(answers[0]!.status).toBe(200);
    for (const a of answers) expect(a).toEqual(answers[0]);
    const list = (await (await stack.request(me, 'GET', `/v1/applications/${appId}/addresses`)).json()) as Array<{
      type: string;
    }>;
    expect(list.filter((a) => a.type === 'sip')).toHaveLength(1);
  });

  it('when the key is repeated later with the same body (keys in another order), then the first answer comes back and nothing is done again', async () => {
    const me = await stack.createAccount('idem');
    const first = await answer(await post(me, '/v1/webhooks', hook, 'k-later'));
    const again = await answer(
      await post(me, '/v1/webhooks/', { targetUrl: hook.targetUrl, resource: 'sms', event: 'smsdlr' }, 'k-later'),
    );
    expect(again).toEqual(first);
    expect(await count(`select count(*) as n from "webhooks".subscriptions where account_id = $1`, me.id)).toBe(1);
  });

  it('when a secret rotation is repeated with its key, then it rotates once and both answers carry the same secret', async () => {
    const me = await stack.createAccount('idem');
    const { href } = (await (await stack.request(me, 'POST', '/v1/webhooks', hook)).json()) as { href: string };
    const path = `${new URL(href).pathname}/secret/rotate`;
    const a = await answer(await post(me, path, undefined, 'rotate-1'));
    const b = await answer(await post(me, path, undefined, 'rotate-1'));
    expect(a.status).toBe(200);
    expect(b).toEqual(a);
    const current = (await (await stack.request(me, 'GET', `${new URL(href).pathname}/secret`)).json()) as {
      secret: string;
    };
    expect(JSON.parse(a.body)).toEqual({ secret: current.secret });
    const c = await answer(await post(me, path, undefined, 'rotate-2'));
    expect(JSON.parse(c.body).secret).not.toBe(current.secret);
  });

  it('when the key is reused with a different body or on another path, then 422 idempotency_key_reused and nothing is made', async () => {
    const me = await stack.createAccount('idem');
    expect((await post(me, '/v1/webhooks', hook, 'k-reuse')).status).toBe(200);
    const res = await post(me, '/v1/webhooks', { ...hook, resource: 'call' }, 'k-reuse');
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await res.json()).toMatchObject({
      status: 422,
      code: 'idempotency_key_reused',
      type: 'urn:switchboard:problem:idempotency_key_reused',
    });
    const { href } = (await (await stack.request(me, 'POST', '/v1/webhooks', hook)).json()) as { href: string };
    expect((await post(me, `${new URL(href).pathname}/secret/rotate`, undefined, 'k-reuse')).status).toBe(422);
    expect(await count(`select count(*) as n from "webhooks".subscriptions where account_id = $1`, me.id)).toBe(2);
  });

  it('when two accounts use the same key, then each gets its own resource', async () => {
    const [a, b] = await Promise.all([stack.createAccount('idem'), stack.createAccount('idem')]);
    const ra = await answer(await post(a, '/v1/webhooks', hook, 'shared-key'));
    const rb = await answer(await post(b, '/v1/webhooks', hook, 'shared-key'));
    expect(ra.status).toBe(200);
    expect(rb.status).toBe(200);
    expect(rb.location).not.toBe(ra.location);
    expect(await count(`select count(*) as n from "webhooks".subscriptions where account_id = $1`, b.id)).toBe(1);
  });

  it('when the first request fails, then nothing is stored and the key can be used again', async () => {
    const me = await stack.createAccount('idem');
    expect((await post(me, '/v1/webhooks', { ...hook, event: 'nope' }, 'k-fail')).status).toBe(400);
    const ok = await post(me, '/v1/webhooks', { ...hook, event: 'nope2' }, 'k-fail');
    expect(ok.status).toBe(400);
    expect((await post(me, '/v1/webhooks', hook, 'k-fail')).status).toBe(200);
  });

  it('when the key is malformed, then 400 naming the header', async () => {
    const me = await stack.createAccount('idem');
    const res = await post(me, '/v1/webhooks', hook, 'x'.repeat(256));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errors: Array<{ field: string }> }).errors[0]!.field).toBe('Idempotency-Key');
  });

  it('when a key is older than 24 hours, then it has expired and starts afresh', async () => {
    const me = await stack.createAccount('idem');
    expect((await post(me, '/v1/webhooks', hook, 'k-old')).status).toBe(200);
    await queryDatabase(
      stack.databaseUrl,
      `update "webhooks".idempotency_keys set created_at = now() - interval '25 hours' where account_id = $1`,
      [me.id],
    );
    const res = await post(me, '/v1/webhooks', { ...hook, resource: 'call' }, 'k-old');
    expect(res.status).toBe(200);
    expect(await count(`select count(*) as n from "webhooks".subscriptions where account_id = $1`, me.id)).toBe(2);
  });

  it('when pruned, then keys older than 24 hours are deleted and newer ones stay', async () => {
    const me = await stack.createAccount('idem');
    expect((await post(me, '/v1/webhooks', hook, 'k-prune-old')).status).toBe(200);
    expect((await post(me, '/v1/webhooks', { ...hook, resource: 'call' }, 'k-prune-new')).status).toBe(200);
    await queryDatabase(
      stack.databaseUrl,
      `update "webhooks".idempotency_keys set created_at = now() - interval '25 hours' where account_id = $1 and key = 'k-prune-old'`,
      [me.id],
    );
    const store = new IdempotencyStore(poolOf(stack.webhooks.app.orm.em), 'webhooks');
    expect(await store.prune()).toBeGreaterThanOrEqual(1);
    const keys = await queryDatabase<{ key: string }>(
      stack.databaseUrl,
      `select key from "webhooks".idempotency_keys where account_id = $1`,
      [me.id],
    );
    expect(keys.map((k) => k.key)).toEqual(['k-prune-new']);
  });
});
