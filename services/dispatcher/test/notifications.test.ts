// Webhook notifications (docs/events.md#notifications, docs/events.md#signatures and 6): cdr.created, cdr.rated and sms.dlr ->
// every matching enabled subscription, signed, retried on a schedule, recorded, 410 disabling.
import { describe, expect, it } from 'vitest';
import { jetstreamManager } from '@nats-io/jetstream';
import {
  waitFor,
  metricSum,
  startReceiver,
  watchSubject,
  type Receiver,
  type RunningDispatcher,
} from '../../../test/support';
import { verifySignature } from '../src/delivery/signing';
import { CONSUMERS } from '../src/streams';
import { cdrEvent, cdrTarget, eventsHandled, retriesIdle, useHarness, type Harness } from './harness';

let h: Harness;
let rx: Receiver;
let dispatcher: RunningDispatcher;

useHarness((f) => ({ h, rx, dispatcher } = f), {
  DELIVERY_CONCURRENCY: '8',
  DELIVERY_HOST_CONCURRENCY: '4',
  LOOKUP_CACHE_TTL: '10m',
});

const deliveries = async (accountId: string, subscriptionId: string) =>
  (await h.webhooks.client.listDeliveries({ accountId, subscriptionId, limit: 100 })).deliveries.sort(
    (a, b) => a.attempt - b.attempt,
  );

/** The subscription's delivery records (by attempt), waited for (10 s at most) until there are `n` of them. */
const recordsWhen = (accountId: string, subscriptionId: string, n: number, what: string) =>
  waitFor(
    async () => {
      const d = await deliveries(accountId, subscriptionId);
      return d.length === n && d;
    },
    { what },
  );

describe('matching', () => {
  it('when a CDR event is published, then exactly the enabled subscriptions of its event, resource (or all) and level get it', async () => {
    const acct = await h.newAccount();
    const other = await h.newAccount();
    const app = await h.newApplication(acct, { voiceUrl: 'https://example.com/v' });
    const otherApp = await h.newApplication(acct, { voiceUrl: 'https://example.com/v' });
    const p = (n: string) => rx.url(`/match/${acct}/${n}`);
    const subs = {
      accountCall: await h.subscribe(acct, {
        event: 'cdrCreated',
        resource: 'call',
        targetUrl: p('account-call'),
        name: 'calls',
        payload: { team: 'ops', n: [1, 2] },
      }),
      accountSms: await h.subscribe(acct, { event: 'cdrCreated', resource: 'sms', targetUrl: p('account-sms') }),
      accountAll: await h.subscribe(acct, { event: 'cdrCreated', resource: 'all', targetUrl: p('account-all') }),
      appCall: await h.subscribe(acct, {
        event: 'cdrCreated',
        resource: 'call,transcription',
        targetUrl: p('app-call'),
        applicationId: app,
      }),
      otherAppAll: await h.subscribe(acct, {
        event: 'cdrCreated',
        resource: 'all',
        targetUrl: p('other-app-all'),
        applicationId: otherApp,
      }),
      rated: await h.subscribe(acct, { event: 'cdrRated', resource: 'all', targetUrl: p('rated') }),
      disabled: await h.subscribe(acct, {
        event: 'cdrCreated',
        resource: 'all',
        targetUrl: p('disabled'),
        enabled: false,
      }),
      otherAccount: await h.subscribe(other, { event: 'cdrCreated', resource: 'all', targetUrl: p('other-account') }),
    };
    const event = cdrEvent(acct, { applicationId: app, resource: 'call', data: { callId: 'c1', durationSeconds: 7 } });
    const seq = await h.publish('cdr.created', event);
    const expected = ['account-call', 'account-all', 'app-call'];
    await waitFor(() => expected.every((n) => rx.at(`/match/${acct}/${n}`).length === 1), {
      what: 'matching deliveries',
    });
    await eventsHandled(h.bus, seq);
    const got = Object.keys(subs).filter(
      (k) => rx.at(`/match/${acct}/${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).length > 0,
    );
    expect(got.sort()).toEqual(['accountAll', 'accountCall', 'appCall']);

    const [req] = rx.at(`/match/${acct}/account-call`);
    expect(req!.body).toEqual({
      id: event.id,
      name: 'calls',
      event: 'cdrCreated',
      resource: 'call',
      timestamp: '2025-03-01T10:00:00.000Z',
      accountId: acct,
      applicationId: app,
      data: { callId: 'c1', durationSeconds: 7 },
      payload: { team: 'ops', n: [1, 2] },
    });
    expect(rx.at(`/match/${acct}/account-all`)[0]!.body).toMatchObject({ name: null, payload: null });
    // Each subscription verifies with its own secret, and only with it.
    expect(verifySignature(subs.accountCall.secret, req!.headers, req!.raw)).toBe(true);
    expect(verifySignature(subs.accountAll.secret, req!.headers, req!.raw)).toBe(false);
    const ids = new Set(expected.map((n) => rx.at(`/match/${acct}/${n}`)[0]!.headers['webhook-id']));
    expect(ids.size).toBe(3);
  });

  it('when an event has no application, then only account-level subscriptions match; sms.dlr reaches smsdlr subscriptions', async () => {
    const acct = await h.newAccount();
    const app = await h.newApplication(acct, { voiceUrl: 'https://example.com/v' });
    const p = (n: string) => rx.url(`/dlr/${acct}/${n}`);
    await h.subscribe(acct, { event: 'smsdlr', resource: 'sms', targetUrl: p('dlr') });
    await h.subscribe(acct, { event: 'smsdlr', resource: 'all', targetUrl: p('dlr-app'), applicationId: app });
    await h.subscribe(acct, { event: 'cdrCreated', resource: 'all', targetUrl: p('cdr') });
    await h.publish('sms.dlr', { ...cdrEvent(acct, { resource: 'sms', data: { status: 'delivered' } }) });
    await waitFor(() => rx.at(`/dlr/${acct}/dlr`).length === 1, { what: 'dlr' });
    expect(rx.at(`/dlr/${acct}/dlr`)[0]!.body).toMatchObject({
      event: 'smsdlr',
      resource: 'sms',
      applicationId: null,
      data: { status: 'delivered' },
    });
    await eventsHandled(h.bus, await h.publish('cdr.rated', cdrEvent(acct, { resource: 'transcription' })));
    expect(rx.at(`/dlr/${acct}/dlr-app`)).toHaveLength(0);
    expect(rx.at(`/dlr/${acct}/cdr`)).toHaveLength(0);
  });

  it('when a subscription is disabled, then events published after the change are not sent to it', async () => {
    const acct = await h.newAccount();
    const sub = await h.subscribe(acct, { event: 'cdrCreated', resource: 'all', targetUrl: rx.url(`/toggle/${acct}`) });
    await h.publish('cdr.created', cdrEvent(acct));
    await waitFor(() => rx.at(`/toggle/${acct}`).length === 1, { what: 'first' });
    const changed = await watchSubject(h.bus.nc, 'webhooks.changed', (b) => b.subscriptionId === sub.id);
    await h.webhooks.client.updateSubscription({ accountId: acct, id: sub.id, enabled: false });
    await changed.seen();
    await eventsHandled(h.bus, await h.publish('cdr.created', cdrEvent(acct)));
    expect(rx.at(`/toggle/${acct}`)).toHaveLength(1);
  });
});

describe('retries', () => {
  it('when the target fails twice, then it is retried with the same webhook-id until it succeeds, Retry-After honoured, every attempt recorded', async () => {
    const { acct, path, sub } = await cdrTarget(h, rx, 'flaky', (_r, n) =>
      n === 1 ? { status: 503, headers: { 'retry-after': '1' } } : n === 2 ? 500 : 204,
    );
    await h.publish('cdr.created', cdrEvent(acct));
    await waitFor(() => rx.at(path).length === 3, { what: 'three attempts', timeoutMs: 10_000 });
    const reqs = rx.at(path);
    expect(new Set(reqs.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(new Set(reqs.map((r) => r.raw)).size).toBe(1);
    expect(reqs.every((r) => verifySignature(sub.secret, r.headers, r.raw))).toBe(true);
    // Retry-After: 1 beats the scheduled 200 ms; then the schedule's 400 ms (+-20%).
    expect(reqs[1]!.at - reqs[0]!.at).toBeGreaterThanOrEqual(950);
    expect(reqs[2]!.at - reqs[1]!.at).toBeGreaterThanOrEqual(300);
    const records = await recordsWhen(acct, sub.id, 3, 'three records');
    expect(records.map((d) => [d.attempt, d.statusCode, d.outcome])).toEqual([
      [1, 503, 'retrying'],
      [2, 500, 'retrying'],
      [3, 204, 'succeeded'],
    ]);
    expect(records.every((d) => d.messageId === reqs[0]!.headers['webhook-id'])).toBe(true);
    const { subscription } = await h.webhooks.client.getSubscription({ accountId: acct, id: sub.id });
    expect(subscription).toMatchObject({ consecutiveFailures: 0, lastStatus: 204 });
  });

  it("when the subscription's name and payload are edited between attempts, then the retry sends the same bytes, and later events carry the edit", async () => {
    const acct = await h.newAccount();
    const path = `/edited/${acct}`;
    rx.on(path, (_r, n) => (n === 1 ? { status: 503, headers: { 'retry-after': '2' } } : 204));
    const sub = await h.subscribe(acct, {
      event: 'cdrCreated',
      resource: 'all',
      targetUrl: rx.url(path),
      name: 'before',
      payload: { v: 1 },
    });
    await h.publish('cdr.created', cdrEvent(acct));
    await waitFor(() => rx.at(path).length === 1, { what: 'first attempt' });
    await h.webhooks.client.updateSubscription({
      accountId: acct,
      id: sub.id,
      name: 'after',
      payloadJson: JSON.stringify({ v: 2 }),
    });
    await waitFor(() => rx.at(path).length === 2, { what: 'the retry', timeoutMs: 10_000 });
    const [first, retry] = rx.at(path);
    expect(retry!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(retry!.raw).toBe(first!.raw);
    expect(retry!.body).toMatchObject({ name: 'before', payload: { v: 1 } });
    expect(verifySignature(sub.secret, retry!.headers, retry!.raw)).toBe(true);
    await h.publish('cdr.created', cdrEvent(acct));
    await waitFor(() => rx.at(path).length === 3, { what: 'a new event' });
    expect(rx.at(path)[2]!.body).toMatchObject({ name: 'after', payload: { v: 2 } });
  });

  it('when the subscription is disabled while a retry waits, then the retry is not made, the log ends "cancelled" and the subscription\'s health is left as it was', async () => {
    const { acct, path, sub } = await cdrTarget(h, rx, 'disabled-mid-retry', (_r, n) =>
      n === 1 ? { status: 503, headers: { 'retry-after': '2' } } : 204,
    );
    await h.publish('cdr.created', cdrEvent(acct));
    await waitFor(() => rx.at(path).length === 1, { what: 'first attempt' });
    await h.webhooks.client.updateSubscription({ accountId: acct, id: sub.id, enabled: false });
    const records = await recordsWhen(acct, sub.id, 2, 'the cancelled retry recorded');
    expect(records.map((d) => [d.attempt, d.outcome])).toEqual([
      [1, 'retrying'],
      [2, 'cancelled'],
    ]);
    expect(records[1]!.error).toMatch(/disabled/);
    expect(rx.at(path)).toHaveLength(1);
    const { subscription } = await h.webhooks.client.getSubscription({ accountId: acct, id: sub.id });
    expect(subscription).toMatchObject({ consecutiveFailures: 1, lastStatus: 503, enabled: false });
  });

  it('when the target keeps failing, then after the last retry the delivery is recorded as failed', async () => {
    const { acct, path, sub } = await cdrTarget(h, rx, 'down', () => 500);
    await h.publish('cdr.created', cdrEvent(acct));
    const records = await recordsWhen(acct, sub.id, 4, 'four records');
    expect(records.map((d) => d.outcome)).toEqual(['retrying', 'retrying', 'retrying', 'failed']);
    expect(records[3]!.error).toMatch(/gave up after 4 attempts/);
    await retriesIdle(h.bus);
    expect(rx.at(path)).toHaveLength(4);
    const { subscription } = await h.webhooks.client.getSubscription({ accountId: acct, id: sub.id });
    expect(subscription).toMatchObject({ consecutiveFailures: 4, lastStatus: 500, enabled: true });
  });

  it('when the target answers 410 Gone, then the subscription is disabled at once and gets nothing more', async () => {
    const { acct, path, sub } = await cdrTarget(h, rx, 'gone', () => 410);
    const changed = await watchSubject(h.bus.nc, 'webhooks.changed', (b) => b.subscriptionId === sub.id);
    await h.publish('cdr.created', cdrEvent(acct));
    const s = await waitFor(
      async () => {
        const { subscription } = await h.webhooks.client.getSubscription({ accountId: acct, id: sub.id });
        return subscription && !subscription.enabled && subscription;
      },
      { what: 'disabled subscription' },
    );
    expect(s!.disabledReason).toMatch(/410/);
    const records = await deliveries(acct, sub.id);
    expect(records.map((d) => [d.attempt, d.statusCode, d.outcome])).toEqual([[1, 410, 'failed']]);
    await changed.seen();
    await eventsHandled(h.bus, await h.publish('cdr.created', cdrEvent(acct)));
    expect(rx.at(path)).toHaveLength(1);
  });
});

describe('isolation', () => {
  it('when one target hangs, then a healthy target still gets its deliveries at once', async () => {
    const dead = await startReceiver();
    try {
      dead.on('/hang', () => 'hang');
      const acct = await h.newAccount();
      await h.subscribe(acct, { event: 'cdrCreated', resource: 'all', targetUrl: dead.url('/hang') });
      await h.subscribe(acct, { event: 'cdrCreated', resource: 'all', targetUrl: rx.url(`/healthy/${acct}`) });
      const sent: number[] = [];
      for (let i = 0; i < 60; i++) {
        sent.push(Date.now());
        await h.publish('cdr.created', cdrEvent(acct, { id: `e${i}` }));
      }
      await waitFor(() => rx.delivered(`/healthy/${acct}`).size === 60, {
        what: 'healthy deliveries',
        timeoutMs: 5000,
      });
      const reqs = rx.at(`/healthy/${acct}`);
      const lat = reqs.map((r) => r.at - sent[Number(String(r.body.id).slice(1))]!);
      // the hanging target holds its slots for the whole 3 s timeout; the healthy one is not held up
      expect(Math.max(...lat)).toBeLessThan(1500);
      expect(dead.at('/hang').length).toBeLessThanOrEqual(8);
      // The hanging target's own jobs wait their turn (deferred while its slots are held, or its breaker opens).
      const deferred = async () => {
        const m = await dispatcher.metrics();
        return (
          metricSum(m, 'dispatcher_deliveries_deferred_total', { kind: 'notification', reason: 'host_busy' }) +
          metricSum(m, 'dispatcher_deliveries_deferred_total', { kind: 'notification', reason: 'breaker_open' })
        );
      };
      await waitFor(async () => (await deferred()) > 0, {
        what: 'deferred deliveries of the hanging target',
        timeoutMs: 10_000,
      });
    } finally {
      await dead.close();
    }
  });
});

describe('malformed events', () => {
  it('when a message is not JSON or fails its schema, then it is terminated, counted and not redelivered', async () => {
    const before = await dispatcher.metrics();
    await h.publish('sessions.new', 'this is not json');
    await h.publish('cdr.created', {
      id: 'x',
      accountId: 'not-a-number',
      resource: 'call',
      timestamp: 'now',
      data: {},
    });
    await h.publish('sms.dlr', {
      id: 'y',
      accountId: '1',
      resource: 'call',
      timestamp: '2025-01-01T00:00:00Z',
      data: {},
    });
    // a valid event behind them still flows
    const acct = await h.newAccount();
    await h.subscribe(acct, { event: 'cdrCreated', resource: 'all', targetUrl: rx.url(`/after-poison/${acct}`) });
    await h.publish('cdr.created', cdrEvent(acct));
    await waitFor(() => rx.at(`/after-poison/${acct}`).length === 1, { what: 'valid event after poison' });
    const m = await dispatcher.metrics();
    const terminated = (subject: string) =>
      metricSum(m, 'dispatcher_messages_terminated_total', { subject }) -
      metricSum(before, 'dispatcher_messages_terminated_total', { subject });
    expect([terminated('sessions.new'), terminated('cdr.created'), terminated('sms.dlr')]).toEqual([1, 1, 1]);
    const jsm = await jetstreamManager(h.bus.nc);
    const info = await waitFor(
      async () => {
        const c = await jsm.consumers.info('SWITCHBOARD_INBOUND', CONSUMERS.events);
        return c.num_ack_pending + c.num_pending === 0 && c;
      },
      { what: 'every event acknowledged' },
    );
    expect(info.num_ack_pending).toBe(0);
    expect(info.num_redelivered).toBe(0);
    expect(info.num_pending).toBe(0);
  });
});

describe('metrics', () => {
  it('when deliveries happened, then the metrics carry the documented names', async () => {
    const m = await dispatcher.metrics();
    expect(metricSum(m, 'dispatcher_deliveries_total', { kind: 'notification', outcome: 'succeeded' })).toBeGreaterThan(
      0,
    );
    expect(metricSum(m, 'dispatcher_deliveries_total', { kind: 'notification', outcome: 'retrying' })).toBeGreaterThan(
      0,
    );
    expect(metricSum(m, 'dispatcher_deliveries_total', { kind: 'notification', outcome: 'failed' })).toBeGreaterThan(0);
    expect(metricSum(m, 'dispatcher_retries_scheduled_total', { kind: 'notification' })).toBeGreaterThan(0);
    expect(metricSum(m, 'dispatcher_attempt_duration_seconds_count', { kind: 'notification' })).toBeGreaterThan(0);
    expect(m).toMatch(/dispatcher_breakers\{state="closed"\} \d+/);
    expect(m).toMatch(/dispatcher_breakers\{state="open"\} \d+/);
    expect(m).toMatch(/dispatcher_breakers\{state="half_open"\} \d+/);
    for (const c of Object.values(CONSUMERS)) expect(m).toContain(`dispatcher_consumer_pending{consumer="${c}"}`);
    expect(m).toContain('dispatcher_process_cpu_seconds_total');
    const ready = await fetch(`http://127.0.0.1:${dispatcher.opsPort}/readyz`);
    expect(ready.status).toBe(200);
  });
});
