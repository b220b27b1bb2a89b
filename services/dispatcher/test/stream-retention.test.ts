// Stores that run for months (docs/decisions/0015-stream-retention.md): finished work holds no space.
// The inbound work queue keeps an event only until it is handled, so events many times its size
// pass through a 1 MiB stream; the core stream and the session registry are replay windows that drop
// their oldest messages and never refuse; a session whose outcome cannot be published at first is
// still POSTed once; and streams left by the former layout are moved without losing what was not
// yet handled.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AckPolicy, DiscardPolicy, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import { nanos } from '@nats-io/nats-core';
import { KV_BUCKETS, STREAMS } from '@switchboard/events';
import { kvStream } from '@switchboard/messaging';
import {
  metricSum,
  randomName,
  startNatsServer,
  startReceiver,
  waitFor,
  type NatsServer,
  type Receiver,
} from '../../../test/support';
import { CONSUMERS } from '../src/streams';
import { cdrEvent, eventsHandled, startHarness, TEST_DISPATCHER_ENV, useHarness, type Harness } from './harness';
import { startDeliveryServices } from '../../../test/support';

const MiB = 1024 * 1024;
const SMALL = { NATS_STREAM_MAX_BYTES: String(MiB), NATS_KV_MAX_BYTES: String(64 * 1024) };

/** An answer of about 2 KB with instructions. */
const TROPO_SAY = {
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ tropo: [{ say: { value: 'x'.repeat(2000) } }] }),
};

/** A cdr.created of about 1.7 KB, like the telephony core's. */
const bigCdr = (account: string, id: string) => cdrEvent(account, { id, data: { note: 'x'.repeat(1600), id } });

/** Publishes the sessions.new of a VOICE call to the application; the session's id. */
async function publishCall(h: Pick<Harness, 'publish'>, applicationId: string): Promise<string> {
  const sessionId = randomName('call');
  await h.publish('sessions.new', {
    applicationId,
    session: {
      id: sessionId,
      from: { id: '+14155550100', channel: 'VOICE' },
      to: { id: '+14155550199', channel: 'VOICE' },
    },
  });
  return sessionId;
}

/** The session of the last sessions.instructions the core stream holds; undefined when none. */
async function lastInstructed(h: Pick<Harness, 'bus'>): Promise<string | undefined> {
  const m = await h.bus.jsm.streams
    .getMessage(STREAMS.core.name, { last_by_subj: 'sessions.instructions' })
    .catch(() => null);
  return m?.json<{ sessionId: string }>().sessionId;
}

describe('with 1 MiB streams', () => {
  let h: Harness;
  let rx: Receiver;
  beforeAll(async () => {
    h = await startDeliveryServices({
      dispatcher: true,
      dispatcherEnv: { ...TEST_DISPATCHER_ENV, ...SMALL },
      env: SMALL,
    });
    rx = await startReceiver();
  });
  afterAll(async () => {
    await h?.stop();
    await rx?.close();
  });

  it('when 4 times the stream size of events is delivered, then nothing is refused and a new call is accepted and POSTed', async () => {
    const account = await h.newAccount();
    const path = `/cdr/${account}`;
    await h.subscribe(account, { event: 'cdrCreated', resource: 'all', targetUrl: rx.url(path) });
    const size = Buffer.byteLength(JSON.stringify(bigCdr(account, 'e-00000')));
    expect(size).toBeGreaterThan(1600);
    const total = Math.ceil((4 * MiB) / size);
    // At a pace the dispatcher keeps up with: a batch, then wait until it is handled and delivered.
    for (let i = 0; i < total; i += 50) {
      const batch = Array.from({ length: Math.min(50, total - i) }, (_, k) => `e-${String(i + k).padStart(5, '0')}`);
      await Promise.all(batch.map((id) => h.publish('cdr.created', bigCdr(account, id))));
      await eventsHandled(h.bus);
      await waitFor(() => rx.delivered(path).size >= i + batch.length, {
        what: `${i + batch.length} of ${total} delivered`,
        timeoutMs: 30_000,
        intervalMs: 10,
      });
    }
    expect(rx.delivered(path).size).toBe(total);
    const inbound = await h.bus.jsm.streams.info(STREAMS.events.name);
    expect(inbound.config.retention).toBe(RetentionPolicy.Workqueue);
    expect(inbound.state.bytes).toBeLessThan(MiB);

    const { application } = await h.applications.client.createApplication({
      accountId: account,
      name: 'after',
      voiceUrl: rx.url(`/voice/${account}`),
    });
    const sessionId = await publishCall(h, application!.id);
    await waitFor(() => rx.at(`/voice/${account}`).some((r) => r.raw.includes(sessionId)), {
      what: 'the session POSTed',
      timeoutMs: 15_000,
    });
  });

  it('when the core stream and the session registry are past their size, then their oldest entries go and a session is still registered, POSTed once and answered', async () => {
    const account = await h.newAccount();
    // 1.5 MiB of signals into the core stream and 100 KiB of registrations into a 64 KiB bucket.
    const filler = 'y'.repeat(900);
    for (let i = 0; i < 1600; i += 50)
      await Promise.all(
        Array.from({ length: 50 }, (_, k) =>
          h.bus.js.publish('sessions.signal', JSON.stringify({ sessionId: `s${i + k}`, value: filler })),
        ),
      );
    const { prefix } = kvStream(KV_BUCKETS.sessions);
    for (let i = 0; i < 400; i += 50)
      await Promise.all(
        Array.from({ length: 50 }, (_, k) => h.bus.js.publish(`${prefix}old${i + k}`, 'z'.repeat(250))),
      );
    const core = await h.bus.jsm.streams.info(STREAMS.core.name);
    expect(core.state.first_seq).toBeGreaterThan(1);
    expect(core.state.bytes).toBeLessThanOrEqual(MiB);
    const kv = await h.bus.jsm.streams.info(kvStream(KV_BUCKETS.sessions).stream);
    expect(kv.state.first_seq).toBeGreaterThan(1);

    const { application } = await h.applications.client.createApplication({
      accountId: account,
      name: 'full stores',
      voiceUrl: rx.url(`/answer/${account}`),
    });
    rx.on(`/answer/${account}`, () => TROPO_SAY);
    const sessionId = await publishCall(h, application!.id);
    const answered = await waitFor(async () => (await lastInstructed(h)) === sessionId, {
      what: 'the instructions published',
      timeoutMs: 15_000,
    });
    expect(answered).toBeTruthy();
    const registered = await h.bus.jsm.streams
      .getMessage(kvStream(KV_BUCKETS.sessions).stream, { last_by_subj: `${prefix}${sessionId}` })
      .catch(() => null);
    expect(registered).not.toBeNull();
    expect(rx.at(`/answer/${account}`)).toHaveLength(1);
  });
});

describe('one owner per stream', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.stop());

  it('when a replica of another service starts, then it changes nothing of the settings the dispatcher gave the streams', async () => {
    await h.startDispatcher();
    // Settings the dispatcher of a newer release might give (here: a shorter replay window).
    for (const name of [STREAMS.core.name, STREAMS.internal.name, STREAMS.events.name]) {
      const info = await h.bus.jsm.streams.info(name);
      await h.bus.jsm.streams.update(name, { ...info.config, max_age: nanos(3600_000) });
    }
    await h.startWebhooks();
    for (const name of [STREAMS.core.name, STREAMS.internal.name, STREAMS.events.name])
      expect((await h.bus.jsm.streams.info(name)).config.max_age, name).toBe(nanos(3600_000));
  });
});

describe('a session whose outcome cannot be published at first', () => {
  let h: Harness;
  let rx: Receiver;
  useHarness((f) => ({ h, rx } = f));

  it('when the core stream refuses the outcome for a while, then the publish is retried and the application is POSTed once', async () => {
    const d = await h.startDispatcher({ DELIVERY_BREAKER_VOLUME_THRESHOLD: '100000' });
    const account = await h.newAccount();
    const { application } = await h.applications.client.createApplication({
      accountId: account,
      name: 'once',
      voiceUrl: rx.url(`/once/${account}`),
    });
    rx.on(`/once/${account}`, () => TROPO_SAY);
    // The core stream stops taking sessions.instructions: the outcome's publish finds no stream.
    const info = await h.bus.jsm.streams.info(STREAMS.core.name);
    await h.bus.jsm.streams.update(STREAMS.core.name, {
      ...info.config,
      subjects: ['sessions.failed', 'sessions.signal', 'events.dead'],
    });
    const sessionId = await publishCall(h, application!.id);
    await waitFor(async () => metricSum(await d.metrics(), 'dispatcher_session_outcome_publish_retries_total') >= 3, {
      what: 'the outcome publish retried',
      timeoutMs: 15_000,
    });
    await h.bus.jsm.streams.update(STREAMS.core.name, info.config);
    await waitFor(async () => (await lastInstructed(h)) === sessionId, {
      what: 'the instructions published',
      timeoutMs: 20_000,
    });
    expect(rx.at(`/once/${account}`)).toHaveLength(1);
  });
});

describe('upgrade from the former stream layout', () => {
  let nats: NatsServer;
  let h: Harness;
  let rx: Receiver;
  beforeAll(async () => {
    nats = await startNatsServer();
    rx = await startReceiver();
  });
  afterAll(async () => {
    await h?.stop();
    await rx?.close();
    await nats?.destroy();
  });

  it('when the streams were made by the former code and hold unhandled events, then the dispatcher moves them, delivers exactly those and takes new ones', async () => {
    // The streams exactly as the former code made them: retention limits, discard new.
    const { connectNats } = await import('@switchboard/messaging');
    const { createLogger } = await import('@switchboard/observability');
    const bus = await connectNats(nats.url, createLogger('test', 'silent'), 'former');
    const former = {
      retention: RetentionPolicy.Limits,
      storage: StorageType.File,
      max_age: nanos(7 * 24 * 3600_000),
      max_bytes: 256 * MiB,
      discard: DiscardPolicy.New,
      num_replicas: 1,
      duplicate_window: nanos(120_000),
    };
    await bus.jsm.streams.add({
      ...former,
      name: 'SWITCHBOARD_EVENTS',
      subjects: ['sessions.new', 'cdr.created', 'cdr.rated', 'sms.dlr', 'webhooks.disabled'],
    });
    await bus.jsm.streams.add({
      ...former,
      name: 'SWITCHBOARD_CORE',
      subjects: ['sessions.instructions', 'sessions.failed', 'sessions.signal', 'events.dead'],
    });
    await bus.jsm.consumers.add('SWITCHBOARD_EVENTS', {
      durable_name: CONSUMERS.events,
      ack_policy: AckPolicy.Explicit,
      ack_wait: nanos(30_000),
    });

    // The new applications and webhooks services start first (a rolling deploy): they leave the
    // former streams alone and their publishes still land there.
    h = await startDeliveryServices({ nats, dispatcherEnv: TEST_DISPATCHER_ENV });
    expect((await h.bus.jsm.streams.info('SWITCHBOARD_EVENTS')).config.retention).toBe(RetentionPolicy.Limits);
    const account = await h.newAccount();
    const path = `/upgrade/${account}`;
    await h.subscribe(account, { event: 'cdrCreated', resource: 'all', targetUrl: rx.url(path) });
    for (let i = 0; i < 30; i++) await h.publish('cdr.created', cdrEvent(account, { id: `old-${i}` }));
    expect((await h.bus.jsm.streams.info('SWITCHBOARD_EVENTS')).state.messages).toBe(30);
    // The former dispatcher handled the first 10 before it stopped.
    const consumer = await bus.js.consumers.get('SWITCHBOARD_EVENTS', CONSUMERS.events);
    const batch = await consumer.fetch({ max_messages: 10, expires: 2000 });
    for await (const m of batch) await m.ackAck();

    await h.startDispatcher();
    await waitFor(() => rx.delivered(path).size >= 20, {
      what: 'the 20 unhandled events delivered',
      timeoutMs: 20_000,
    });
    expect(rx.delivered(path).size).toBe(20);
    const events = rx.at(path).map((r) => (r.body as { id: string }).id);
    expect(new Set(events)).toEqual(new Set(Array.from({ length: 20 }, (_, k) => `old-${k + 10}`)));

    const streams = (await h.bus.jsm.streams.names().next()).sort();
    expect(streams).not.toContain('SWITCHBOARD_EVENTS');
    const inbound = await h.bus.jsm.streams.info(STREAMS.events.name);
    expect(inbound.config.retention).toBe(RetentionPolicy.Workqueue);
    expect((await h.bus.jsm.streams.info(STREAMS.core.name)).config.discard).toBe(DiscardPolicy.Old);

    await h.publish('cdr.created', cdrEvent(account, { id: 'new-0' }));
    await waitFor(() => rx.at(path).some((r) => r.raw.includes('"new-0"')), {
      what: 'a new event delivered',
    });
    await bus.close();
  });
});
