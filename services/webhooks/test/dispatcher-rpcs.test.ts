// The internal RPCs the dispatcher uses (MatchSubscriptions), secrets, and delivery records with the health they keep.
import { describe, expect, it } from 'vitest';
import { SUBJECTS } from '@switchboard/events';
import type { Delivery } from '@switchboard/proto';
import { queryDatabase, waitFor } from '../../../test/support';
import { checkBatch } from '../src/deliveries/record-attempts';
import { deliveryFromJson } from '../src/deliveries/records-consumer';
import { codeOf, fieldErrorsOf, useHarness, storeRecords, watch, type Harness } from './harness';

let h: Harness;
useHarness((s) => (h = s));

const client = () => h.webhooks.client;

const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  queryDatabase<T>(h.db.url, text, params);

async function sub(
  accountId: string,
  fields: { event?: string; resource?: string; enabled?: boolean } = {},
  applicationId = '',
) {
  const res = await client().createSubscription({
    accountId,
    applicationId,
    event: 'cdrCreated',
    resource: 'call',
    targetUrl: 'https://example.com/hook',
    ...fields,
  });
  return { ...res.subscription!, secret: res.secret };
}

function attempt(subscriptionId: string, fields: Partial<Delivery> = {}): Delivery {
  return {
    messageId: `msg_${Math.random().toString(16).slice(2)}`,
    kind: 'notification',
    subscriptionId,
    event: 'cdrCreated',
    targetUrl: 'https://example.com/hook',
    attempt: 1,
    statusCode: 200,
    durationMs: 12,
    outcome: 'succeeded',
    createdAt: new Date().toISOString(),
    ...fields,
  };
}

/** A record as the webhooks service reads it from a batch. */
const asOutput = (d: Delivery) => deliveryFromJson(d as Record<string, unknown>);

describe('MatchSubscriptions', () => {
  it("when an event of an application arrives, then the account-level and that application's enabled subscriptions with the event and resource match", async () => {
    const acct = await h.newAccount();
    const [app, otherApp] = await Promise.all([h.newApplication(acct), h.newApplication(acct)]);
    const accountCall = await sub(acct, { resource: 'call' });
    const accountAll = await sub(acct, { resource: 'all' });
    const accountSms = await sub(acct, { resource: 'sms' });
    const accountOtherEvent = await sub(acct, { event: 'cdrRated', resource: 'all' });
    const accountDisabled = await sub(acct, { resource: 'call', enabled: false });
    const appMulti = await sub(acct, { resource: 'sms,call,transcription' }, app);
    const otherAppSub = await sub(acct, { resource: 'all' }, otherApp);
    const stranger = await h.newAccount();
    await sub(stranger, { resource: 'all' });

    const res = await client().matchSubscriptions({
      accountId: acct,
      applicationId: app,
      event: 'cdrCreated',
      resource: 'call',
    });
    const ids = res.subscriptions.map((m) => m.subscription!.id);
    expect(ids).toEqual([accountCall.id, accountAll.id, appMulti.id]);
    for (const excluded of [accountSms, accountOtherEvent, accountDisabled, otherAppSub])
      expect(ids).not.toContain(excluded.id);
    expect(res.subscriptions[0]!.secrets).toEqual([accountCall.secret]);
    expect(res.subscriptions[2]!.subscription).toMatchObject({
      applicationId: app,
      targetUrl: 'https://example.com/hook',
    });
  });

  it('when an event names no application, then only account-level subscriptions match', async () => {
    const acct = await h.newAccount();
    const app = await h.newApplication(acct);
    const a = await sub(acct, { event: 'smsdlr', resource: 'sms' });
    await sub(acct, { event: 'smsdlr', resource: 'sms' }, app);
    const res = await client().matchSubscriptions({ accountId: acct, event: 'smsdlr', resource: 'sms' });
    expect(res.subscriptions.map((m) => m.subscription!.id)).toEqual([a.id]);
  });

  it('when the event or resource is unknown, or the account is missing, then invalid_request', async () => {
    expect(
      (await fieldErrorsOf(client().matchSubscriptions({ accountId: '1', event: 'x', resource: 'call' }))).fields,
    ).toEqual(['event']);
    expect(
      (await fieldErrorsOf(client().matchSubscriptions({ accountId: '1', event: 'smsdlr', resource: 'fax' }))).fields,
    ).toEqual(['resource']);
    expect(await codeOf(client().matchSubscriptions({ event: 'smsdlr', resource: 'sms' }))).toBe('invalid_request');
  });
});

describe('secrets', () => {
  it('when the secret is read, then it is the one returned at create', async () => {
    const acct = await h.newAccount();
    const s = await sub(acct);
    expect((await client().getSecret({ accountId: acct, id: s.id })).secret).toBe(s.secret);
  });

  it('when the secret is rotated, then the new one is current and the previous one is still matched for 24 hours', async () => {
    const acct = await h.newAccount();
    const s = await sub(acct);
    const w = watch(h.bus, SUBJECTS.webhooksChanged);
    const { secret } = await client().rotateSecret({ accountId: acct, id: s.id });
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(s.secret);
    expect((await client().getSecret({ accountId: acct, id: s.id })).secret).toBe(secret);
    const match = async () =>
      (await client().matchSubscriptions({ accountId: acct, event: 'cdrCreated', resource: 'call' })).subscriptions[0]!
        .secrets;
    expect(await match()).toEqual([secret, s.secret]);
    await waitFor(() => w.messages.some((m) => m.subscriptionId === s.id), { what: 'webhooks.changed after rotation' });
    w.stop();

    const [row] = await sql<{ hours: number }>(
      `select extract(epoch from previous_expires_at - rotated_at) / 3600 as hours from webhooks.subscription_secrets where subscription_id = $1`,
      [s.id],
    );
    expect(Number(row!.hours)).toBe(24);
    // Once the 24 hours are over, only the current secret signs.
    await sql(
      `update webhooks.subscription_secrets set previous_expires_at = now() - interval '1 second' where subscription_id = $1`,
      [s.id],
    );
    expect(await match()).toEqual([secret]);
  });

  it('when rotated twice, then only the secret replaced last is kept as previous', async () => {
    const acct = await h.newAccount();
    const s = await sub(acct);
    const first = (await client().rotateSecret({ accountId: acct, id: s.id })).secret;
    const second = (await client().rotateSecret({ accountId: acct, id: s.id })).secret;
    const m = await client().matchSubscriptions({ accountId: acct, event: 'cdrCreated', resource: 'call' });
    expect(m.subscriptions[0]!.secrets).toEqual([second, first]);
  });
});

describe('attempt records and delivery health', () => {
  it('when failed attempts are recorded, then consecutiveFailures, lastAttemptAt and lastStatus follow; a success resets the count', async () => {
    const acct = await h.newAccount();
    const s = await sub(acct);
    const t1 = new Date(Date.now() - 3000).toISOString();
    const t2 = new Date(Date.now() - 2000).toISOString();
    await storeRecords(h, {
      attempts: [
        attempt(s.id, {
          messageId: 'm1',
          attempt: 1,
          statusCode: 500,
          outcome: 'retrying',
          createdAt: t1,
          error: 'HTTP 500',
        }),
        attempt(s.id, {
          messageId: 'm1',
          attempt: 2,
          statusCode: 0,
          outcome: 'retrying',
          createdAt: t2,
          error: 'timeout after 15000 ms',
        }),
      ],
    });
    let got = (await client().getSubscription({ accountId: acct, id: s.id })).subscription!;
    expect(got.consecutiveFailures).toBe(2);
    expect(got.lastAttemptAt).toBe(t2);
    expect(got.lastStatus).toBeUndefined();

    const t3 = new Date().toISOString();
    await storeRecords(h, {
      attempts: [attempt(s.id, { messageId: 'm1', attempt: 3, statusCode: 204, outcome: 'succeeded', createdAt: t3 })],
    });
    got = (await client().getSubscription({ accountId: acct, id: s.id })).subscription!;
    expect(got).toMatchObject({ consecutiveFailures: 0, lastAttemptAt: t3, lastStatus: 204, enabled: true });
  });

  it('when the same attempts are recorded twice, then they are stored and counted once', async () => {
    const acct = await h.newAccount();
    const s = await sub(acct);
    const a = attempt(s.id, { messageId: 'dup', statusCode: 503, outcome: 'retrying' });
    await storeRecords(h, { attempts: [a] });
    await storeRecords(h, { attempts: [a] });
    expect((await client().getSubscription({ accountId: acct, id: s.id })).subscription!.consecutiveFailures).toBe(1);
    expect((await client().listDeliveries({ accountId: acct, subscriptionId: s.id })).deliveries).toHaveLength(1);
  });

  it('when a disable entry arrives (410 Gone), then the subscription is disabled with the reason, stops matching and webhooks.changed is published', async () => {
    const acct = await h.newAccount();
    const s = await sub(acct);
    const w = watch(h.bus, SUBJECTS.webhooksChanged);
    await storeRecords(h, {
      attempts: [attempt(s.id, { statusCode: 410, outcome: 'failed' })],
      disable: [{ subscriptionId: s.id, reason: 'target answered 410 Gone' }],
    });
    const got = (await client().getSubscription({ accountId: acct, id: s.id })).subscription!;
    expect(got).toMatchObject({
      enabled: false,
      disabledReason: 'target answered 410 Gone',
      lastStatus: 410,
      consecutiveFailures: 1,
    });
    expect(
      (await client().matchSubscriptions({ accountId: acct, event: 'cdrCreated', resource: 'call' })).subscriptions,
    ).toEqual([]);
    await waitFor(() => w.messages.some((m) => m.subscriptionId === s.id), { what: 'webhooks.changed after disable' });
    w.stop();
  });

  it('when a disabled subscription is re-enabled by update, then disabledReason and consecutiveFailures are cleared', async () => {
    const acct = await h.newAccount();
    const s = await sub(acct);
    await storeRecords(h, {
      attempts: [
        attempt(s.id, { statusCode: 500, outcome: 'retrying' }),
        attempt(s.id, { statusCode: 410, outcome: 'failed' }),
      ],
      disable: [{ subscriptionId: s.id, reason: 'gone' }],
    });
    const { subscription } = await client().updateSubscription({ accountId: acct, id: s.id, enabled: true });
    expect(subscription).toMatchObject({ enabled: true, consecutiveFailures: 0 });
    expect(subscription!.disabledReason).toBeUndefined();
    expect(subscription!.lastStatus).toBe(410);
  });

  it('when attempts are malformed, then the check names each bad field and refuses those records only', () => {
    const s = 'wh_000000000000000000000001';
    const checked = checkBatch(
      [attempt(s), attempt(s, { kind: 'fax', outcome: 'maybe', attempt: 0 }), attempt('nope', { messageId: '' })].map(
        asOutput,
      ),
      [],
    );
    expect(checked.errors.map((e) => e.field)).toEqual([
      'attempts[1].kind',
      'attempts[1].outcome',
      'attempts[1].attempt',
      'attempts[2].messageId',
      'attempts[2].subscriptionId',
    ]);
    expect(checked.attempts).toHaveLength(1);
  });

  it('when attempts carry kind and outcome only as proto enums, then they are stored and listed with the enums and the same text', async () => {
    const acct = await h.newAccount();
    const s = await sub(acct);
    await storeRecords(h, {
      attempts: [
        attempt(s.id, {
          messageId: 'enum',
          kind: '',
          deliveryKind: 'DELIVERY_KIND_NOTIFICATION',
          outcome: '',
          deliveryOutcome: 'DELIVERY_OUTCOME_CANCELLED',
          statusCode: 0,
        }),
        // the enum wins over the text when both are set
        attempt(s.id, {
          messageId: 'enum',
          attempt: 2,
          outcome: 'retrying',
          deliveryOutcome: 'DELIVERY_OUTCOME_SUCCEEDED',
        }),
      ],
    });
    const { deliveries } = await client().listDeliveries({ accountId: acct, subscriptionId: s.id });
    expect(deliveries.map((d) => [d.attempt, d.kind, d.deliveryKind, d.outcome, d.deliveryOutcome])).toEqual([
      [2, 'notification', 'DELIVERY_KIND_NOTIFICATION', 'succeeded', 'DELIVERY_OUTCOME_SUCCEEDED'],
      [1, 'notification', 'DELIVERY_KIND_NOTIFICATION', 'cancelled', 'DELIVERY_OUTCOME_CANCELLED'],
    ]);
    const bad = checkBatch(
      [asOutput(attempt(s.id, { kind: '', outcome: '', deliveryOutcome: 'DELIVERY_OUTCOME_UNSPECIFIED' }))],
      [],
    );
    expect(bad.errors.map((e) => e.field)).toEqual(['attempts[0].kind', 'attempts[0].outcome']);
  });

  it('when an attempt names a subscription that no longer exists, then it is dropped without error', async () => {
    await expect(storeRecords(h, { attempts: [attempt('wh_000000000000000000000000')] })).resolves.toBeUndefined();
  });
});

describe('ListDeliveries', () => {
  it('when attempts were recorded, then the subscription lists them newest first with every field, paged by cursor', async () => {
    const acct = await h.newAccount();
    const s = await sub(acct);
    const base = Date.now() - 10_000;
    await storeRecords(h, {
      attempts: [1, 2, 3].map((n) =>
        attempt(s.id, {
          messageId: 'page',
          attempt: n,
          statusCode: n === 3 ? 200 : 502,
          outcome: n === 3 ? 'succeeded' : 'retrying',
          durationMs: n * 10,
          createdAt: new Date(base + n * 1000).toISOString(),
          ...(n < 3 ? { error: `HTTP 502 (${n})` } : {}),
        }),
      ),
    });
    const first = await client().listDeliveries({ accountId: acct, subscriptionId: s.id, limit: 2 });
    expect(first.deliveries.map((d) => d.attempt)).toEqual([3, 2]);
    expect(first.deliveries[0]).toMatchObject({
      messageId: 'page',
      kind: 'notification',
      subscriptionId: s.id,
      accountId: acct,
      event: 'cdrCreated',
      targetUrl: 'https://example.com/hook',
      statusCode: 200,
      durationMs: 30,
      outcome: 'succeeded',
    });
    expect(first.deliveries[0]!.error).toBeUndefined();
    expect(first.deliveries[1]!.error).toBe('HTTP 502 (2)');
    expect(first.deliveries[0]!.id).toMatch(/^dlv_[0-9a-f]{24}$/);
    expect(first.nextCursor).not.toBe('');
    const second = await client().listDeliveries({
      accountId: acct,
      subscriptionId: s.id,
      limit: 2,
      cursor: first.nextCursor,
    });
    expect(second.deliveries.map((d) => d.attempt)).toEqual([1]);
    expect(second.nextCursor).toBe('');
  });

  it('when a new subscription has no attempts yet, then its delivery list is empty', async () => {
    const acct = await h.newAccount();
    const s = await sub(acct);
    expect(await client().listDeliveries({ accountId: acct, subscriptionId: s.id })).toEqual({
      deliveries: [],
      nextCursor: '',
    });
  });

  it('when session deliveries of an application were recorded, then the application lists them, and other accounts get not_found', async () => {
    const acct = await h.newAccount();
    const app = await h.newApplication(acct);
    await storeRecords(h, {
      attempts: [
        attempt('', {
          kind: 'session',
          subscriptionId: '',
          applicationId: app,
          accountId: acct,
          event: 'session',
          targetUrl: 'https://example.com/voice',
        }),
      ],
    });
    const res = await client().listDeliveries({ accountId: acct, applicationId: app });
    expect(res.deliveries).toHaveLength(1);
    expect(res.deliveries[0]).toMatchObject({
      kind: 'session',
      applicationId: app,
      subscriptionId: '',
      targetUrl: 'https://example.com/voice',
    });
    const stranger = await h.newAccount();
    expect(await codeOf(client().listDeliveries({ accountId: stranger, applicationId: app }))).toBe('not_found');
  });

  it('when neither or both of subscription and application are given, then invalid_request', async () => {
    expect(await codeOf(client().listDeliveries({ accountId: '1' }))).toBe('invalid_request');
    expect(
      await codeOf(
        client().listDeliveries({ accountId: '1', subscriptionId: 'wh_000000000000000000000000', applicationId: 'x' }),
      ),
    ).toBe('invalid_request');
  });

  it('when a subscription is deleted, then its delivery records go with it (in the background)', async () => {
    const acct = await h.newAccount();
    const s = await sub(acct);
    await storeRecords(h, { attempts: [attempt(s.id)] });
    await client().deleteSubscription({ accountId: acct, id: s.id });
    expect(await codeOf(client().listDeliveries({ accountId: acct, subscriptionId: s.id }))).toBe('not_found');
    await waitFor(
      async () => (await sql(`select 1 from webhooks.deliveries where subscription_id = $1`, [s.id])).length === 0,
      { what: 'records swept' },
    );
    expect(await sql(`select 1 from webhooks.subscription_secrets where subscription_id = $1`, [s.id])).toEqual([]);
  });
});
