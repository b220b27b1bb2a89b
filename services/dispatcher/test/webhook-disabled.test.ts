// The webhookDisabled event (docs/events.md#webhook-disabled), through the real transports: the
// gateway's HTTP API, the webhooks service (which disables and writes the event to its outbox), NATS
// and the dispatcher (which fans it out, signed, to the account's webhookDisabled subscriptions).
// DELIVERY_DISABLE_AFTER is 3 s here, retries 400 ms apart without jitter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startReceiver,
  startServices,
  waitFor,
  watchSubject,
  type Receiver,
  type Services,
  type TestAccount,
  type JsonBody,
} from '../../../test/support';
import { verifySignature } from '../src/delivery/signing';
import { cdrEvent, eventsHandled, TEST_DISPATCHER_ENV } from './harness';

type Stack = Services<{ webhooks: true; gateway: true; dispatcher: true }>;
let s: Stack;
let rx: Receiver;

const DISABLE_AFTER_MS = 3000;

beforeAll(async () => {
  s = await startServices({
    webhooks: true,
    gateway: true,
    dispatcher: true,
    env: { DELIVERY_ALLOWED_CIDRS: '127.0.0.0/8,::1/128', DELIVERY_DISABLE_AFTER: `${DISABLE_AFTER_MS / 1000}s` },
    // Twelve retries 400 ms apart: a target failing every one of them fails for 4.8 s.
    dispatcherEnv: {
      ...TEST_DISPATCHER_ENV,
      DELIVERY_RETRY_SCHEDULE: Array(12).fill('400ms').join(','),
      DELIVERY_RETRY_JITTER: '0',
    },
  });
  rx = await startReceiver();
});
afterAll(async () => {
  await s?.stop();
  await rx?.close();
});

interface Sub {
  id: string;
  secret: string;
  path: string;
}

/** Creates a subscription through the API (account-level, or on `app`); the receiver path answers `responder` (default 204). */
async function subscribe(account: TestAccount, event: string, name: string, app?: string): Promise<Sub> {
  const path = `/${account.id}/${name}`;
  const res = await s.request(account, 'POST', app ? `/v1/applications/${app}/webhooks` : '/v1/webhooks', {
    event,
    resource: 'all',
    targetUrl: rx.url(path),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const { href, secret } = (await res.json()) as { href: string; secret: string };
  return { id: href.split('/').pop()!, secret, path };
}

const read = async (account: TestAccount, id: string) =>
  (await (await s.request(account, 'GET', `/v1/webhooks/${id}`)).json()) as Record<string, JsonBody>;

describe('a subscription disabled by a 410', () => {
  it('when a target answers 410, then every account-level webhookDisabled subscriber of the account gets a signed notice with what was disabled and why', async () => {
    const acct = await s.createAccount();
    const other = await s.createAccount();
    const app = await s.newApplication(acct.id);
    const watcher = await subscribe(acct, 'webhookDisabled', 'watcher');
    const second = await subscribe(acct, 'webhookDisabled', 'second');
    const othersWatcher = await subscribe(other, 'webhookDisabled', 'others-watcher');
    const gone = await subscribe(acct, 'cdrCreated', 'gone', app);
    rx.on(gone.path, () => 410);

    await s.publish('cdr.created', cdrEvent(acct.id, { applicationId: app }));
    await waitFor(() => rx.at(watcher.path).length === 1 && rx.at(second.path).length === 1, {
      what: 'webhookDisabled notices',
      timeoutMs: 10_000,
    });

    const disabled = await read(acct, gone.id);
    expect(disabled).toMatchObject({ enabled: false, disabledReason: expect.stringMatching(/410 Gone/) });
    const [req] = rx.at(watcher.path);
    expect(req!.body).toEqual({
      id: expect.any(String),
      name: null,
      event: 'webhookDisabled',
      resource: 'all',
      timestamp: expect.stringMatching(/Z$/),
      accountId: acct.id,
      applicationId: app,
      data: {
        subscriptionId: gone.id,
        href: `${s.baseUrl}/v1/webhooks/${gone.id}`,
        targetUrl: rx.url(gone.path),
        reason: disabled.disabledReason,
        disabledAt: expect.stringMatching(/Z$/),
      },
      payload: null,
    });
    // disabledAt is when the subscription changed (its updatedAt), and the href reads it back.
    expect(Date.parse(req!.body.data.disabledAt)).toBe(Date.parse(disabled.updatedAt));
    expect((await s.request(acct, 'GET', new URL(req!.body.data.href).pathname)).status).toBe(200);
    // Signed like every notification, each subscriber with its own secret.
    expect(verifySignature(watcher.secret, req!.headers, req!.raw)).toBe(true);
    expect(verifySignature(second.secret, req!.headers, req!.raw)).toBe(false);
    expect(verifySignature(second.secret, rx.at(second.path)[0]!.headers, rx.at(second.path)[0]!.raw)).toBe(true);
    // Listed with the subscriber's deliveries like any other notification.
    const deliveries = await waitFor(
      async () => {
        const list = (await (await s.request(acct, 'GET', `/v1/webhooks/${watcher.id}/deliveries`)).json()) as Record<
          string,
          unknown
        >[];
        return list.length > 0 && list;
      },
      { what: 'the notice recorded' },
    );
    expect(deliveries[0]).toMatchObject({ event: 'webhookDisabled', outcome: 'succeeded' });

    await eventsHandled(s.bus);
    expect(rx.at(watcher.path)).toHaveLength(1);
    expect(rx.at(othersWatcher.path)).toHaveLength(0);
  });

  it('when a webhookDisabled subscriber is itself disabled, then the others are told and it is never sent its own notice', async () => {
    const acct = await s.createAccount();
    const gone = await subscribe(acct, 'cdrCreated', 'gone');
    const goneWatcher = await subscribe(acct, 'webhookDisabled', 'gone-watcher');
    const watcher = await subscribe(acct, 'webhookDisabled', 'watcher');
    rx.on(gone.path, () => 410);
    rx.on(goneWatcher.path, () => 410);

    await s.publish('cdr.created', cdrEvent(acct.id));
    // The cdrCreated subscription's notice reaches both; the 410 of one of them disables it, which
    // the other is told about.
    await waitFor(() => rx.at(watcher.path).length === 2, { what: 'two notices', timeoutMs: 10_000 });
    expect(rx.at(watcher.path).map((r) => r.body.data.subscriptionId)).toEqual([gone.id, goneWatcher.id]);
    expect(await read(acct, goneWatcher.id)).toMatchObject({
      enabled: false,
      disabledReason: expect.stringMatching(/410/),
    });
    await eventsHandled(s.bus);
    expect(rx.at(goneWatcher.path).map((r) => r.body.data.subscriptionId)).toEqual([gone.id]);
    expect(rx.at(watcher.path)).toHaveLength(2);
  });
});

describe('a subscription failing for DELIVERY_DISABLE_AFTER', () => {
  it('when every attempt fails for 3 s, then it is disabled and notified; a success in between starts the count again; PUT enabled true resets it and deliveries resume', async () => {
    const acct = await s.createAccount();
    const watcher = await subscribe(acct, 'webhookDisabled', 'watcher');
    const failing = await subscribe(acct, 'cdrCreated', 'failing');
    const recovering = await subscribe(acct, 'cdrRated', 'recovering');
    // 400 is the target's answer, not a sign of ill health: the host's breaker stays closed.
    rx.on(failing.path, () => 400);
    // The recovering target fails its first event 9 times (3.5 s from the first failure to the
    // last), then succeeds; in between, after the 5th failure, another event succeeds at once. Its
    // runs of failures last about 1.8 s and 1.3 s: it is never disabled.
    const good = 'evt-good';
    let firstEventAttempts = 0;
    rx.on(recovering.path, (r) => (r.body.id === good ? 204 : ++firstEventAttempts >= 10 ? 204 : 400));

    const start = Date.now();
    await s.publish('cdr.created', cdrEvent(acct.id));
    await s.publish('cdr.rated', cdrEvent(acct.id));
    await waitFor(() => rx.at(recovering.path).length === 5, { what: 'five failed attempts', timeoutMs: 10_000 });
    await s.publish('cdr.rated', cdrEvent(acct.id, { id: good }));

    const notice = await waitFor(() => rx.at(watcher.path)[0], { what: 'the notice', timeoutMs: 15_000 });
    const disabled = await read(acct, failing.id);
    expect(disabled).toMatchObject({
      enabled: false,
      disabledReason: expect.stringMatching(/^no delivery succeeded since .*: failing continuously for 3s or more$/),
    });
    expect(notice.body).toMatchObject({
      event: 'webhookDisabled',
      data: { subscriptionId: failing.id, reason: disabled.disabledReason, targetUrl: rx.url(failing.path) },
    });
    expect(verifySignature(watcher.secret, notice.headers, notice.raw)).toBe(true);
    // Disabled by the first failed attempt made 3 s or more after the first one (of 13, as the
    // delivery records time them); the retry after it is not made (recorded as cancelled).
    const records = (
      await waitFor(
        async () => {
          const list = (await (await s.request(acct, 'GET', `/v1/webhooks/${failing.id}/deliveries`)).json()) as {
            attempt: number;
            outcome: string;
            createdAt: string;
          }[];
          return list.some((r) => r.outcome === 'cancelled') && list;
        },
        { what: 'the cancelled retry recorded' },
      )
    ).sort((a, b) => a.attempt - b.attempt);
    const made = records.filter((r) => r.outcome !== 'cancelled');
    const at = (i: number) => Date.parse(made[i]!.createdAt) - Date.parse(made[0]!.createdAt);
    expect(made.length).toBeLessThan(13);
    expect(made.every((r) => r.outcome === 'retrying')).toBe(true);
    expect(at(made.length - 1)).toBeGreaterThanOrEqual(DISABLE_AFTER_MS);
    expect(at(made.length - 2)).toBeLessThan(DISABLE_AFTER_MS);
    expect(rx.at(failing.path)).toHaveLength(made.length);
    expect(Date.now() - start).toBeLessThan(15_000);

    // The recovering subscription's first event succeeds at its 10th attempt; it stayed enabled,
    // though its failures span more than 3 s: the success in between started the count again.
    await waitFor(() => rx.delivered(recovering.path).size === 2, { what: 'both events delivered', timeoutMs: 15_000 });
    const recovered = await waitFor(
      async () => {
        const r = await read(acct, recovering.id);
        return r.lastStatus === 204 && r.consecutiveFailures === 0 && r;
      },
      { what: 'its health recorded' },
    );
    expect(recovered).toMatchObject({ enabled: true, disabledReason: null });
    const recoveringRecords = (await (
      await s.request(acct, 'GET', `/v1/webhooks/${recovering.id}/deliveries`)
    ).json()) as { outcome: string; createdAt: string }[];
    const failedAt = recoveringRecords.filter((r) => r.outcome === 'retrying').map((r) => Date.parse(r.createdAt));
    expect(failedAt).toHaveLength(9);
    expect(Math.max(...failedAt) - Math.min(...failedAt)).toBeGreaterThanOrEqual(DISABLE_AFTER_MS);
    expect(rx.at(watcher.path)).toHaveLength(1);

    // PUT {"enabled": true}: enabled, failures forgotten; a new failure does not disable it again at
    // once (its run starts afresh), and the retry that succeeds is delivered.
    const changed = await watchSubject(s.bus.nc, 'webhooks.changed', (b) => b.subscriptionId === failing.id);
    const res = await s.request(acct, 'PUT', `/v1/webhooks/${failing.id}`, { enabled: true });
    expect(res.status).toBe(200);
    expect(await read(acct, failing.id)).toMatchObject({ enabled: true, disabledReason: null, consecutiveFailures: 0 });
    const before = made.length;
    rx.on(failing.path, (_r, n) => (n === before + 1 ? 400 : 204));
    await changed.seen();
    await s.publish('cdr.created', cdrEvent(acct.id));
    await waitFor(() => rx.delivered(failing.path).size === 1, {
      what: 'the delivery after re-enabling',
      timeoutMs: 10_000,
    });
    expect(rx.at(failing.path).length).toBe(before + 2);
    const after = await waitFor(
      async () => {
        const r = await read(acct, failing.id);
        return r.lastStatus === 204 && r;
      },
      { what: 'the success recorded' },
    );
    expect(after).toMatchObject({ enabled: true, consecutiveFailures: 0 });
    expect(rx.at(watcher.path)).toHaveLength(1);
  });
});

describe('subscribing to webhookDisabled', () => {
  it('when it names an application or a resource other than all, then 400 with the field; the catalogue lists it with the JSON Schema of its data', async () => {
    const acct = await s.createAccount();
    const app = await s.newApplication(acct.id);
    const body = { event: 'webhookDisabled', resource: 'all', targetUrl: rx.url('/never') };

    const onApp = await s.request(acct, 'POST', `/v1/applications/${app}/webhooks`, body);
    expect(onApp.status).toBe(400);
    expect(onApp.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(((await onApp.json()) as { errors: { field: string }[] }).errors.map((e) => e.field)).toEqual(['event']);

    const sms = await s.request(acct, 'POST', '/v1/webhooks', { ...body, resource: 'sms' });
    expect(sms.status).toBe(400);
    expect(((await sms.json()) as { errors: { field: string; message: string }[] }).errors).toEqual([
      { field: 'resource', message: 'must be all for webhookDisabled' },
    ]);

    const created = await s.request(acct, 'POST', '/v1/webhooks', body);
    expect(created.status).toBe(200);
    const id = ((await created.json()) as { href: string }).href.split('/').pop()!;
    const put = await s.request(acct, 'PUT', `/v1/webhooks/${id}`, { resource: 'call' });
    expect(put.status).toBe(400);
    expect((await read(acct, id)).resource).toBe('all');

    const types = (await (await s.request(acct, 'GET', '/v1/event-types')).json()) as Record<string, JsonBody>[];
    const t = types.find((x) => x.name === 'webhookDisabled');
    expect(t).toMatchObject({
      resources: ['all'],
      applicationLevel: false,
      data: { type: 'object', required: ['subscriptionId', 'href', 'targetUrl', 'reason', 'disabledAt'] },
    });
    expect(Object.keys(t!.data.properties)).toEqual(['subscriptionId', 'href', 'targetUrl', 'reason', 'disabledAt']);
  });
});
