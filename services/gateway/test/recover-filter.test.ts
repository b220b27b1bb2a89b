// Recovery by filter (docs/api.md#delivery-tools) through the real gateway, webhooks service,
// dispatcher, Postgres and NATS: the filters narrow which failed deliveries a recovery takes, a dry
// run counts them and sends nothing, and the real run resends exactly those.
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  queryDatabase,
  randomName,
  startDeliveryServices,
  startReceiver,
  waitFor,
  type JsonBody,
  type Received,
  type Receiver,
  type RunningDispatcher,
  type Services,
  type TestAccount,
} from '../../../test/support';
import { deliveriesOf, publishCdr, RECOVERY_DISPATCHER_ENV, subscribeCdr, waitForFailed } from './delivery-helpers.ts';

let stack: Services<{ gateway: true; webhooks: true }>;
let rx: Receiver;
let dispatcher: RunningDispatcher;
let alice: TestAccount;

beforeAll(async () => {
  stack = await startDeliveryServices({ gateway: true, dispatcherEnv: RECOVERY_DISPATCHER_ENV });
  rx = await startReceiver();
  dispatcher = await stack.startDispatcher();
  alice = await stack.createAccount('alice');
}, 60_000);
afterAll(async () => {
  await stack?.stop();
  await rx?.close();
});

const json = async (res: Response) => (await res.json()) as Record<string, JsonBody>;
type Delivery = Record<string, JsonBody>;

/**
 * A subscription of alice to a new receiver path (`/<prefix>/<random>`) that refuses every delivery
 * (503, or what `failure` answers) until `bringUp()`; with its deliveries (`list`) and a recovery of
 * its failed deliveries since just before it was made (`recover`, with the filters of `body`).
 */
async function failingSubscription(prefix: string, failure: (r: Received) => number = () => 503) {
  const target = `/${prefix}/${randomName('t')}`;
  const id = await subscribeCdr(stack, alice, rx.url(target));
  let up = false;
  rx.on(target, (r) => (up ? 200 : failure(r)));
  const since = new Date(Date.now() - 1000).toISOString();
  return {
    target,
    id,
    list: async () => (await deliveriesOf(stack, alice, id)) as Delivery[],
    recover: (body: Record<string, unknown>) =>
      stack.request(alice, 'POST', `/v1/webhooks/${id}/recover`, { since, ...body }),
    bringUp: () => {
      up = true;
    },
  };
}

/** The task of a recovery just asked for (202), once it has completed. */
async function completed(res: Response): Promise<Record<string, JsonBody>> {
  expect(res.status).toBe(202);
  const task = new URL((await json(res)).href as string).pathname;
  await waitFor(async () => (await json(await stack.request(alice, 'GET', task))).state === 'completed', {
    what: 'recovery completed',
    timeoutMs: 20_000,
  });
  return json(await stack.request(alice, 'GET', task));
}

it('a dry run counts exactly the deliveries the filters take and sends nothing; the real run resends exactly those', async () => {
  // Odd events fail with 503, even ones with 422: all six end failed.
  const { target, id, list, recover, bringUp } = await failingSubscription('filter', (r) =>
    (r.body.data.n as number) % 2 === 1 ? 503 : 422,
  );
  for (let n = 1; n <= 6; n++) await publishCdr(stack, alice.id, n);
  await waitForFailed(stack, alice, id, 6);
  const messageOf = new Map<number, string>();
  for (const r of rx.at(target)) messageOf.set(r.body.data.n as number, r.headers['webhook-id'] as string);

  const dry = async (body: Record<string, unknown>) => {
    const res = await recover({ ...body, dryRun: true });
    expect(res.status).toBe(200);
    return json(res);
  };
  // Every delivery's newest record is its failed one once all records are stored.
  await waitFor(async () => (await dry({})).matched === 6, {
    what: 'six failed deliveries matched',
    timeoutMs: 10_000,
  });
  const before = rx.at(target).length;
  expect(await dry({})).toEqual({ dryRun: true, matched: 6, skipped: 0 });
  expect(await dry({ statusFrom: 500, statusTo: 599 })).toEqual({ dryRun: true, matched: 3, skipped: 0 });
  expect(await dry({ statusTo: 499 })).toEqual({ dryRun: true, matched: 3, skipped: 0 });
  expect(await dry({ event: 'smsdlr' })).toEqual({ dryRun: true, matched: 0, skipped: 0 });
  expect(
    await dry({ event: 'cdrCreated', outcome: 'failed', messageId: [messageOf.get(2), messageOf.get(5)] }),
  ).toEqual({
    dryRun: true,
    matched: 2,
    skipped: 0,
  });
  // Bad filters name their field.
  const bad = await recover({ statusFrom: 600 });
  expect(bad.status).toBe(400);
  expect(((await json(bad)).errors as { field: string }[]).map((e) => e.field)).toEqual(['statusFrom']);
  const reversed = await recover({ statusFrom: 500, statusTo: 400 });
  expect(((await json(reversed)).errors as { field: string }[]).map((e) => e.field)).toEqual(['statusFrom']);
  // The dry runs sent nothing and queued no task.
  expect(rx.at(target).length).toBe(before);
  expect((await list()).filter((d) => d.trigger === 'recovery')).toEqual([]);

  bringUp();
  expect(await completed(await recover({ statusFrom: 500, statusTo: 599 }))).toMatchObject({
    total: 3,
    sent: 3,
    failed: 0,
  });
  // Exactly those three, each once (resends are made concurrently: ordering by key is not applied yet).
  expect(
    rx
      .at(target)
      .slice(before)
      .map((r) => r.body.data.n as number)
      .sort((a, b) => a - b),
  ).toEqual([1, 3, 5]);
}, 90_000);

it('a cancelled recovery sends none of its resends, also those already handed to the dispatchers', async () => {
  const { target, id, list, recover, bringUp } = await failingSubscription('cancel');
  for (let n = 1; n <= 3; n++) await publishCdr(stack, alice.id, n);
  await waitForFailed(stack, alice, id, 3);
  await waitFor(async () => (await json(await recover({ dryRun: true }))).matched === 3, {
    what: 'three failed deliveries matched',
    timeoutMs: 10_000,
  });
  // No dispatcher while the recovery is queued and cancelled: its jobs wait in the stream.
  await dispatcher.stop();
  bringUp();
  const before = rx.at(target).length;
  const res = await recover({});
  expect(res.status).toBe(202);
  const task = new URL((await json(res)).href as string).pathname;
  // Handed to the dispatchers' stream first (the relay publishes them), so the dispatcher must skip them.
  const taskId = task.split('/').pop()!;
  await waitFor(
    async () =>
      (
        await queryDatabase<{ n: number }>(
          stack.databaseUrl,
          'select count(*)::int as n from webhooks.resends where task_id = $1 and published_at is not null',
          [taskId],
        )
      )[0]!.n === 3,
    { what: 'the resends published', timeoutMs: 10_000 },
  );
  const cancelled = await stack.request(alice, 'DELETE', task);
  expect(cancelled.status).toBe(200);
  expect(await json(cancelled)).toMatchObject({ state: 'cancelled', total: 3 });
  // Only a running one can be cancelled.
  expect((await stack.request(alice, 'DELETE', task)).status).toBe(409);

  dispatcher = await stack.startDispatcher();
  await waitFor(async () => (await list()).filter((d) => d.trigger === 'recovery').length === 3, {
    what: 'the cancelled resends recorded',
    timeoutMs: 20_000,
  });
  const recorded = (await list()).filter((d) => d.trigger === 'recovery');
  expect(recorded.map((d) => [d.outcome, d.error])).toEqual(
    Array(3).fill(['cancelled', 'not resent: the recovery was cancelled']),
  );
  expect(rx.at(target).length).toBe(before);
  expect(await json(await stack.request(alice, 'GET', task))).toMatchObject({ state: 'cancelled' });
}, 90_000);

it('a recovery filtered by two session ids resends exactly the failed deliveries about those sessions', async () => {
  const { target, id, recover, bringUp } = await failingSubscription('sessions');
  // Three sessions, two records each, and one record about no session: all seven fail.
  const sessions = [randomName('ses-a'), randomName('ses-b'), randomName('ses-c')];
  let n = 0;
  for (const sessionId of sessions)
    for (let k = 0; k < 2; k++)
      await stack.publish('cdr.created', {
        id: randomName(`evt${++n}`),
        accountId: alice.id,
        resource: 'call',
        timestamp: '2026-03-01T10:00:00.000Z',
        data: { n, sessionId },
      });
  await publishCdr(stack, alice.id, ++n);
  await waitForFailed(stack, alice, id, 7);
  const dry = async (body: Record<string, unknown>) => json(await recover({ ...body, dryRun: true }));
  await waitFor(async () => (await dry({})).matched === 7, {
    what: 'seven failed deliveries matched',
    timeoutMs: 10_000,
  });
  const chosen = [sessions[0]!, sessions[2]!];
  expect(await dry({ sessionId: chosen })).toEqual({ dryRun: true, matched: 4, skipped: 0 });
  expect(await dry({ sessionId: [randomName('ses-none')] })).toEqual({ dryRun: true, matched: 0, skipped: 0 });
  // Filters combine: a session and a message of another session take nothing.
  const messageOfN = new Map(rx.at(target).map((r) => [r.body.data.n as number, r.headers['webhook-id'] as string]));
  expect(await dry({ sessionId: [sessions[0]], messageId: [messageOfN.get(3)] })).toMatchObject({ matched: 0 });
  // Bad session ids name the field.
  for (const bad of [[''], 'ses', ['x'.repeat(401)], Array(1001).fill('s')]) {
    const res = await recover({ sessionId: bad });
    expect(res.status).toBe(400);
    expect(((await json(res)).errors as { field: string }[]).map((e) => e.field)[0]).toMatch(/^sessionId/);
  }

  bringUp();
  const before = rx.at(target).length;
  expect(await completed(await recover({ sessionId: chosen }))).toMatchObject({ total: 4, sent: 4, failed: 0 });
  const resent = rx.at(target).slice(before);
  expect(resent.map((r) => r.body.data.n as number).sort((a, b) => a - b)).toEqual([1, 2, 5, 6]);
  expect(new Set(resent.map((r) => r.body.data.sessionId))).toEqual(new Set(chosen));
}, 90_000);
