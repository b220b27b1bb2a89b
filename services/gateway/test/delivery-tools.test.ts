// The tools customers run on their own endpoints (docs/events.md#operating-your-endpoints), through
// the real gateway, webhooks and applications services, dispatchers, Postgres and NATS: test sends,
// resends (notifications and sessions) and recoveries, including across a dispatcher restart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELIVERIES_STREAM } from '@switchboard/contracts';
import {
  queryDatabase,
  randomName,
  startReceiver,
  startDeliveryServices,
  waitFor,
  type Receiver,
  type RunningDispatcher,
  type Services,
  type TestAccount,
  type JsonBody,
} from '../../../test/support';
import { RECOVERY_DISPATCHER_ENV } from './delivery-helpers.ts';
import { verifySignature } from '../../dispatcher/src/delivery/signing';
import { CONSUMERS } from '../../dispatcher/src/streams';

/** Small limits of the delivery tools, for the tests of them; the other tests stay below them. */
const TOOL_LIMITS = { RECOVERY_MAX_DELIVERIES: '4', RESENDS_PER_HOUR: '3', RECOVERIES_PER_HOUR: '4' };

let stack: Services<{ gateway: true; webhooks: true }>;
let rx: Receiver;
let dispatcher: RunningDispatcher | undefined;
let alice: TestAccount;
let bob: TestAccount;

beforeAll(async () => {
  stack = await startDeliveryServices({
    gateway: true,
    env: { TEST_REPLY_TIMEOUT_MS: '4000', ...TOOL_LIMITS },
    dispatcherEnv: RECOVERY_DISPATCHER_ENV,
  });
  rx = await startReceiver();
  dispatcher = await stack.startDispatcher();
  [alice, bob] = await Promise.all([stack.createAccount('alice'), stack.createAccount('bob')]);
}, 60_000);
afterAll(async () => {
  await stack?.stop();
  await rx?.close();
});

const json = async (res: Response) => (await res.json()) as Record<string, JsonBody>;
const path = (href: string) => new URL(href).pathname;

async function hook(
  account: TestAccount,
  target: string,
  extra: Record<string, unknown> = {},
): Promise<{ id: string; secret: string }> {
  const res = await stack.request(account, 'POST', '/v1/webhooks', {
    event: 'cdrCreated',
    resource: 'all',
    targetUrl: rx.url(target),
    ...extra,
  });
  expect(res.status).toBe(200);
  const b = await json(res);
  return { id: (b.href as string).split('/').pop()!, secret: b.secret };
}

function cdr(accountId: string, n: number) {
  return { id: randomName(`evt${n}`), accountId, resource: 'call', timestamp: '2026-03-01T10:00:00.000Z', data: { n } };
}

async function deliveries(account: TestAccount, subscriptionId: string): Promise<Record<string, JsonBody>[]> {
  return (await json(await stack.request(account, 'GET', `/v1/webhooks/${subscriptionId}/deliveries`))) as never;
}

async function problem(res: Response, status: number, code?: string): Promise<Record<string, JsonBody>> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const p = await json(res);
  if (code) expect(p.code).toBe(code);
  return p;
}

/** Stops the running dispatcher; the next one is started by the test. */
async function stopDispatcher(): Promise<void> {
  await dispatcher?.stop();
  dispatcher = undefined;
}

describe('POST /v1/webhooks/:id/test', () => {
  it('when the target answers, then it got a signed test notification with the custom headers, and the answer and the recorded attempt say so', async () => {
    const target = `/test-ok/${randomName('t')}`;
    const sub = await hook(alice, target, {
      name: 'billing',
      payload: { team: 'ops' },
      headers: { 'X-Team': 'billing' },
    });
    rx.on(target, () => ({ status: 200, headers: { 'content-type': 'text/plain' }, body: 'test seen' }));
    const res = await stack.request(alice, 'POST', `/v1/webhooks/${sub.id}/test`);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({ status: 200, durationMs: expect.any(Number) });
    expect(body.error).toBeUndefined();

    const [got] = rx.at(target);
    expect(got!.body).toMatchObject({
      event: 'test',
      resource: 'test',
      name: 'billing',
      accountId: alice.id,
      applicationId: null,
      data: { message: expect.any(String) },
      payload: { team: 'ops' },
    });
    expect(Object.keys(got!.body)).toEqual([
      'id',
      'name',
      'event',
      'resource',
      'timestamp',
      'accountId',
      'applicationId',
      'data',
      'payload',
    ]);
    expect(got!.headers['x-team']).toBe('billing');
    expect(verifySignature(sub.secret, got!.headers, got!.raw)).toBe(true);

    // The attempt is recorded (trigger test), and reads at the href of the answer.
    await waitFor(async () => (await deliveries(alice, sub.id)).length === 1, { what: 'test attempt recorded' });
    const [d] = await deliveries(alice, sub.id);
    expect(d).toMatchObject({
      trigger: 'test',
      event: 'test',
      statusCode: 200,
      outcome: 'succeeded',
      messageId: got!.headers['webhook-id'],
    });
    // Its record shows the body sent and what the target answered.
    expect(await json(await stack.request(alice, 'GET', path(body.href)))).toMatchObject({
      id: d!.id,
      trigger: 'test',
      request: { body: got!.raw, bytes: got!.bytes.length, truncated: false },
      response: { contentType: 'text/plain', excerpt: 'test seen', truncated: false },
    });
    // A test leaves the delivery health alone.
    expect(await json(await stack.request(alice, 'GET', `/v1/webhooks/${sub.id}`))).toMatchObject({
      lastAttemptAt: null,
      consecutiveFailures: 0,
    });
  });

  it('when the target fails, then the answer has its status and the error, and a custom message is sent', async () => {
    const target = `/test-500/${randomName('t')}`;
    const sub = await hook(alice, target);
    rx.on(target, () => 500);
    const res = await stack.request(alice, 'POST', `/v1/webhooks/${sub.id}/test`, { message: 'hello there' });
    expect(await json(res)).toMatchObject({ status: 500, error: 'HTTP 500' });
    expect(rx.at(target)[0]!.body.data).toEqual({ message: 'hello there' });
  });

  it('when the target does not answer in time, then the test ends within the delivery timeout with status null', async () => {
    const target = `/test-hang/${randomName('t')}`;
    const sub = await hook(alice, target);
    rx.on(target, () => 'hang');
    const started = Date.now();
    const body = await json(await stack.request(alice, 'POST', `/v1/webhooks/${sub.id}/test`));
    expect(Date.now() - started).toBeLessThan(3900);
    expect(body.status).toBeNull();
    expect(body.error).toMatch(/timeout|timed out/i);
  });

  it('when tested more than 5 times in a minute, then 429 with Retry-After; another account gets 404', async () => {
    const target = `/test-limit/${randomName('t')}`;
    const sub = await hook(alice, target);
    for (let i = 0; i < 5; i++)
      expect((await stack.request(alice, 'POST', `/v1/webhooks/${sub.id}/test`)).status).toBe(200);
    const res = await stack.request(alice, 'POST', `/v1/webhooks/${sub.id}/test`);
    await problem(res, 429, 'rate_limited');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(rx.at(target)).toHaveLength(5);
    await problem(await stack.request(bob, 'POST', `/v1/webhooks/${sub.id}/test`), 404, 'not_found');
  });

  it('when no dispatcher runs, then 503', async () => {
    const sub = await hook(alice, '/test-none');
    await stopDispatcher();
    try {
      await problem(await stack.request(alice, 'POST', `/v1/webhooks/${sub.id}/test`), 503, 'unavailable');
    } finally {
      dispatcher = await stack.startDispatcher();
    }
  });
});

describe('POST /v1/webhooks/:id/deliveries/:deliveryId/resend', () => {
  it('when resent while no dispatcher runs, then the next dispatcher sends the same bytes and webhook-id with a fresh valid signature', async () => {
    const target = `/resend/${randomName('t')}`;
    const sub = await hook(alice, target);
    await stack.publish('cdr.created', cdr(alice.id, 1));
    await waitFor(async () => (await deliveries(alice, sub.id)).length === 1, { what: 'first delivery recorded' });
    const [first] = await deliveries(alice, sub.id);
    const original = rx.at(target)[0]!;

    await stopDispatcher();
    const res = await stack.request(alice, 'POST', `/v1/webhooks/${sub.id}/deliveries/${first!.id}/resend`, undefined, {
      'Idempotency-Key': `k-${first!.id}`,
    });
    expect(res.status).toBe(202);
    const { href } = await json(res);
    expect(res.headers.get('location')).toBe(href);
    expect(href).toMatch(new RegExp(`/v1/webhooks/${sub.id}/deliveries/dlv_[0-9a-f]{24}$`));
    // Repeating with the same key answers the same resend instead of queueing another.
    const again = await stack.request(
      alice,
      'POST',
      `/v1/webhooks/${sub.id}/deliveries/${first!.id}/resend`,
      undefined,
      { 'Idempotency-Key': `k-${first!.id}` },
    );
    expect((await json(again)).href).toBe(href);
    expect(await json(await stack.request(alice, 'GET', path(href)))).toMatchObject({
      outcome: 'pending',
      trigger: 'resend',
      messageId: first!.messageId,
    });
    // the resend is signed in a later second than the original (webhook-timestamp counts seconds)
    await waitFor(() => Math.floor(Date.now() / 1000) > Number(original.headers['webhook-timestamp']), {
      what: 'the next second',
      intervalMs: 20,
    });
    dispatcher = await stack.startDispatcher();

    await waitFor(() => rx.at(target).length === 2, { what: 'resend delivered' });
    const resent = rx.at(target)[1]!;
    expect(resent.raw).toBe(original.raw);
    expect(resent.headers['webhook-id']).toBe(original.headers['webhook-id']);
    expect(Number(resent.headers['webhook-timestamp'])).toBeGreaterThan(Number(original.headers['webhook-timestamp']));
    expect(resent.headers['webhook-signature']).not.toBe(original.headers['webhook-signature']);
    expect(verifySignature(sub.secret, resent.headers, resent.raw)).toBe(true);
    await waitFor(async () => (await json(await stack.request(alice, 'GET', path(href)))).outcome === 'succeeded', {
      what: 'resend recorded',
    });
    expect(await json(await stack.request(alice, 'GET', path(href)))).toMatchObject({
      trigger: 'resend',
      statusCode: 200,
      messageId: first!.messageId,
    });
    expect(rx.at(target)).toHaveLength(2);
  });

  it("when the delivery or subscription is unknown or another account's, then 404", async () => {
    const sub = await hook(alice, '/resend-404');
    await problem(
      await stack.request(alice, 'POST', `/v1/webhooks/${sub.id}/deliveries/dlv_000000000000000000000000/resend`),
      404,
    );
    await problem(
      await stack.request(bob, 'POST', `/v1/webhooks/${sub.id}/deliveries/dlv_000000000000000000000000/resend`),
      404,
    );
    await problem(
      await stack.request(alice, 'POST', `/v1/webhooks/wh_000000000000000000000000/deliveries/x/resend`),
      404,
    );
  });
});

describe('POST /v1/applications/:id/deliveries/:deliveryId/resend', () => {
  it('when a session delivery is resent, then the application gets the same session body and webhook-id again', async () => {
    const target = `/voice/${randomName('a')}`;
    const created = await json(
      await stack.request(alice, 'POST', '/v1/applications', { name: 'app', voiceUrl: rx.url(target) }),
    );
    const appId = (created.href as string).split('/').pop()!;
    rx.on(target, () => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: '{"tropo":[{"hangup":{}}]}',
    }));
    await stack.publish('sessions.new', {
      applicationId: appId,
      session: { id: randomName('s'), from: { id: '+14075550100', channel: 'VOICE' }, to: { id: '+14075550101' } },
    });
    const list = () => stack.listAll<Record<string, JsonBody>>(alice, `/v1/applications/${appId}/deliveries`);
    await waitFor(async () => (await list()).length === 1, { what: 'session recorded' });
    const [first] = await list();
    const res = await stack.request(alice, 'POST', `/v1/applications/${appId}/deliveries/${first!.id}/resend`);
    expect(res.status).toBe(202);
    const { href } = await json(res);
    expect(href).toMatch(new RegExp(`/v1/applications/${appId}/deliveries/dlv_`));
    await waitFor(() => rx.at(target).length === 2, { what: 'session resent' });
    const [a, b] = rx.at(target);
    expect(b!.raw).toBe(a!.raw);
    expect(b!.headers['webhook-id']).toBe(a!.headers['webhook-id']);
    await waitFor(async () => (await json(await stack.request(alice, 'GET', path(href)))).outcome === 'succeeded', {
      what: 'session resend recorded',
    });
    // The session's attempt and its resend both show the body sent and the application's answer.
    const answer = { contentType: 'application/json', excerpt: '{"tropo":[{"hangup":{}}]}', truncated: false };
    const request = { body: a!.raw, bytes: a!.bytes.length, truncated: false };
    for (const h of [`/v1/applications/${appId}/deliveries/${first!.id}`, path(href)])
      expect(await json(await stack.request(alice, 'GET', h))).toMatchObject({ request, response: answer });
    await problem(await stack.request(bob, 'POST', `/v1/applications/${appId}/deliveries/${first!.id}/resend`), 404);
  });
});

describe('POST /v1/webhooks/:id/recover', () => {
  it('when deliveries failed, then a recovery queued while no dispatcher runs resends them in their original order, and the task counts them', async () => {
    const target = `/recover/${randomName('t')}`;
    const sub = await hook(alice, target);
    let down = true;
    rx.on(target, () => (down ? 503 : 200));
    const since = new Date(Date.now() - 1000).toISOString();
    for (let n = 1; n <= 3; n++) await stack.publish('cdr.created', cdr(alice.id, n));
    // Each fails twice (the schedule has one retry) and ends failed.
    await waitFor(async () => (await deliveries(alice, sub.id)).filter((d) => d.outcome === 'failed').length === 3, {
      what: 'deliveries failed',
      timeoutMs: 15_000,
    });
    const firstOrder = rx
      .at(target)
      .filter((r, i, all) => all.findIndex((x) => x.headers['webhook-id'] === r.headers['webhook-id']) === i)
      .map((r) => r.body.data.n);
    expect(firstOrder).toEqual([1, 2, 3]);

    await stopDispatcher();
    down = false;
    const before = rx.at(target).length;
    const res = await stack.request(alice, 'POST', `/v1/webhooks/${sub.id}/recover`, { since });
    expect(res.status).toBe(202);
    const { href } = await json(res);
    expect(href).toMatch(new RegExp(`/v1/webhooks/${sub.id}/recoveries/rcv_[0-9a-f]{24}$`));
    expect(await json(await stack.request(alice, 'GET', path(href)))).toMatchObject({
      state: 'running',
      total: 3,
      sent: 0,
      failed: 0,
      skipped: 0,
    });
    dispatcher = await stack.startDispatcher();

    await waitFor(async () => (await json(await stack.request(alice, 'GET', path(href)))).state === 'completed', {
      what: 'recovery completed',
      timeoutMs: 15_000,
    });
    expect(await json(await stack.request(alice, 'GET', path(href)))).toMatchObject({
      state: 'completed',
      total: 3,
      sent: 3,
      failed: 0,
    });
    const resent = rx.at(target).slice(before);
    expect(resent.map((r) => r.body.data.n)).toEqual([1, 2, 3]);
    for (const r of resent) expect(verifySignature(sub.secret, r.headers, r.raw)).toBe(true);
    const recorded = (await deliveries(alice, sub.id)).filter((d) => d.trigger === 'recovery');
    expect(recorded.map((d) => d.outcome)).toEqual(['succeeded', 'succeeded', 'succeeded']);

    // Nothing failed in the window any more: a second recovery has nothing to do.
    const second = await json(await stack.request(alice, 'POST', `/v1/webhooks/${sub.id}/recover`, { since }));
    expect(await json(await stack.request(alice, 'GET', path(second.href)))).toMatchObject({
      state: 'completed',
      total: 0,
    });
  });

  it("when the window is wrong or the subscription not the caller's, then 4xx problems", async () => {
    const sub = await hook(alice, '/recover-bad');
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    await problem(
      await stack.request(alice, 'POST', `/v1/webhooks/${sub.id}/recover`, { since: iso(now), until: iso(now - 1000) }),
      400,
      'invalid_request',
    );
    await problem(
      await stack.request(alice, 'POST', `/v1/webhooks/${sub.id}/recover`, { since: iso(now - 31 * 86_400_000) }),
      400,
      'invalid_request',
    );
    await problem(
      await stack.request(alice, 'POST', `/v1/webhooks/${sub.id}/recover`, { since: 'yesterday' }),
      400,
      'invalid_request',
    );
    await problem(
      await stack.request(alice, 'POST', `/v1/webhooks/${sub.id}/recover`, {
        since: iso(now - 1000),
        status: 'succeeded',
      }),
      400,
      'invalid_request',
    );
    await problem(await stack.request(alice, 'POST', `/v1/webhooks/${sub.id}/recover`, {}), 400, 'invalid_request');
    await problem(await stack.request(bob, 'POST', `/v1/webhooks/${sub.id}/recover`, { since: iso(now - 1000) }), 404);
    await problem(
      await stack.request(alice, 'GET', `/v1/webhooks/${sub.id}/recoveries/rcv_000000000000000000000000`),
      404,
    );
  });
});

describe('limits of resends and recoveries', () => {
  const since = () => new Date(Date.now() - 60_000).toISOString();

  /** A subscription of `account` whose `n` deliveries all ended failed. */
  async function failedDeliveries(account: TestAccount, n: number): Promise<{ id: string; target: string }> {
    const target = `/limits/${randomName('t')}`;
    rx.on(target, () => 503);
    const sub = await hook(account, target);
    for (let i = 1; i <= n; i++) await stack.publish('cdr.created', cdr(account.id, i));
    await waitFor(async () => (await deliveries(account, sub.id)).filter((d) => d.outcome === 'failed').length === n, {
      what: `${n} deliveries failed`,
      timeoutMs: 15_000,
    });
    return { id: sub.id, target };
  }

  it('when a recovery of the subscription is still running, then another is 409 naming the running task, and allowed once it completed', async () => {
    const carol = await stack.createAccount('carol');
    const sub = await failedDeliveries(carol, 1);
    rx.on(sub.target, () => 200);
    await stopDispatcher();
    const first = await stack.request(carol, 'POST', `/v1/webhooks/${sub.id}/recover`, { since: since() });
    expect(first.status).toBe(202);
    const taskId = path((await json(first)).href)
      .split('/')
      .pop()!;
    const p = await problem(
      await stack.request(carol, 'POST', `/v1/webhooks/${sub.id}/recover`, { since: since() }),
      409,
      'conflict',
    );
    expect(p.error).toContain(taskId);
    dispatcher = await stack.startDispatcher();
    await waitFor(
      async () =>
        (await json(await stack.request(carol, 'GET', `/v1/webhooks/${sub.id}/recoveries/${taskId}`))).state ===
        'completed',
      { what: 'recovery completed', timeoutMs: 15_000 },
    );
    expect((await stack.request(carol, 'POST', `/v1/webhooks/${sub.id}/recover`, { since: since() })).status).toBe(202);
  });

  it('when the window holds more failed deliveries than RECOVERY_MAX_DELIVERIES, then 400 asking for a narrower window, and nothing is queued', async () => {
    const dave = await stack.createAccount('dave');
    const sub = await failedDeliveries(dave, 5);
    const before = rx.at(sub.target).length;
    const p = await problem(
      await stack.request(dave, 'POST', `/v1/webhooks/${sub.id}/recover`, { since: since() }),
      400,
      'invalid_request',
    );
    expect(JSON.stringify(p)).toMatch(/more than 4 failed deliveries/);
    // The refusal wrote nothing: no task and no resend for the relay to hand to the dispatchers...
    const [queued] = await queryDatabase<{ tasks: number; resends: number }>(
      stack.databaseUrl,
      `select (select count(*) from webhooks.recovery_tasks where subscription_id = $1)::int as tasks,
              (select count(*) from webhooks.resends where subscription_id = $1)::int as resends`,
      [sub.id],
    );
    expect(queued).toEqual({ tasks: 0, resends: 0 });
    // ...and the dispatchers' resend consumer has nothing pending or in hand, so nothing is on its way.
    await waitFor(
      async () => {
        const c = await stack.bus.jsm.consumers.info(DELIVERIES_STREAM, CONSUMERS.resends);
        return c.num_pending + c.num_ack_pending === 0;
      },
      { what: 'the resend consumer idle' },
    );
    expect(rx.at(sub.target).length).toBe(before);
  });

  it('when an account queues more recoveries or resends in an hour than its limits, then 429 with Retry-After, while another account is unaffected', async () => {
    const [erin, frank] = await Promise.all([stack.createAccount('erin'), stack.createAccount('frank')]);
    // Recoveries with nothing to do still count.
    const empty = await hook(erin, `/limits/${randomName('empty')}`);
    for (let i = 0; i < 4; i++)
      expect((await stack.request(erin, 'POST', `/v1/webhooks/${empty.id}/recover`, { since: since() })).status).toBe(
        202,
      );
    const refused = await stack.request(erin, 'POST', `/v1/webhooks/${empty.id}/recover`, { since: since() });
    await problem(refused, 429, 'rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3000);
    const other = await hook(frank, `/limits/${randomName('other')}`);
    expect((await stack.request(frank, 'POST', `/v1/webhooks/${other.id}/recover`, { since: since() })).status).toBe(
      202,
    );

    const target = `/limits/${randomName('resend')}`;
    const sub = await hook(erin, target);
    await stack.publish('cdr.created', cdr(erin.id, 1));
    await waitFor(async () => (await deliveries(erin, sub.id)).length === 1, { what: 'first delivery recorded' });
    const [first] = await deliveries(erin, sub.id);
    for (let i = 0; i < 3; i++)
      expect((await stack.request(erin, 'POST', `/v1/webhooks/${sub.id}/deliveries/${first!.id}/resend`)).status).toBe(
        202,
      );
    const tooMany = await stack.request(erin, 'POST', `/v1/webhooks/${sub.id}/deliveries/${first!.id}/resend`);
    await problem(tooMany, 429, 'rate_limited');
    expect(Number(tooMany.headers.get('retry-after'))).toBeGreaterThan(3000);
  });
});

describe('GET /v1/webhooks/:id/deliveries/:deliveryId of a large body', () => {
  it('when the body sent is longer than 16 KiB, then the record shows its first 16 KiB, its whole size and that it was cut', async () => {
    const carol = await stack.createAccount('carol');
    const target = `/large/${randomName('t')}`;
    const sub = await hook(carol, target);
    rx.on(target, () => 204);
    await stack.publish('cdr.created', { ...cdr(carol.id, 1), data: { n: 1, notes: 'x'.repeat(20_000) } });
    await waitFor(async () => (await deliveries(carol, sub.id)).length === 1, { what: 'large delivery recorded' });
    const [d] = await deliveries(carol, sub.id);
    const got = rx.at(target)[0]!;
    const read = await json(await stack.request(carol, 'GET', `/v1/webhooks/${sub.id}/deliveries/${d!.id}`));
    expect(read.request).toEqual({ body: got.raw.slice(0, 16 * 1024), bytes: got.bytes.length, truncated: true });
    expect(read.response).toEqual({ contentType: '', excerpt: '', truncated: false });
  });
});
