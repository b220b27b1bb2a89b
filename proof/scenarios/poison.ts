// Poison events: 5,000 events that the services refuse for good (account ids "0" and "007", NUL
// characters in ids, data nested 5,000 deep, not JSON at all: test/support/poison.ts), interleaved with
// valid events. Every valid event must be delivered, every poison event dead-lettered to
// events.dead, and the events consumer's backlog must drain. Before dead-lettering, each poison
// event came back every second and 2,000 of them filled max_ack_pending: deliveries stalled.
import { STREAMS, SUBJECTS } from '@switchboard/events';
import { poisonEvent } from '../../test/support/poison';
import type { Cluster } from '../cluster';
import { cdrEvent } from '../lib/load';
import { duplicates, type Receiver } from '../lib/receiver';
import { sleep } from '../lib/stats';
import { finish, newTarget, until, type Scale, type ScenarioResult } from './common';

const EVENTS_CONSUMER = 'dispatcher-events';

async function deadLetters(cluster: Cluster): Promise<number> {
  const info = await cluster.bus.jsm.streams.info(STREAMS.core.name, { subjects_filter: SUBJECTS.eventDead });
  return info.state.subjects?.[SUBJECTS.eventDead] ?? 0;
}

async function backlog(cluster: Cluster): Promise<number> {
  const c = await cluster.bus.jsm.consumers.info(STREAMS.events.name, EVENTS_CONSUMER);
  return c.num_pending + c.num_ack_pending;
}

export async function poisonEvents(
  cluster: Cluster,
  rx: Receiver,
  scale: Scale,
  poison = 5000,
  validEvery = 5,
): Promise<ScenarioResult> {
  const started = Date.now();
  const name = 'poison';
  const t = await newTarget(cluster, rx, name);
  const deadBefore = await deadLetters(cluster).catch(() => 0);
  const valid: string[] = [];
  const inflight = new Set<Promise<unknown>>();
  const publish = (subject: string, body: string, id: string) => {
    const p = cluster.bus.js.publish(subject, body, { msgID: id, timeout: 10_000 }).finally(() => inflight.delete(p));
    inflight.add(p);
    return p;
  };
  const t0 = Date.now();
  for (let i = 0; i < poison; i++) {
    void publish('cdr.created', poisonEvent(i, t.account.id, 'poison-'), `bad-${started}-${i}`);
    if (i % validEvery === 0) {
      const e = cdrEvent(`ok-${started}-${i}`, t.account.id);
      valid.push(e.id);
      void publish(e.subject, JSON.stringify(e.body), e.id);
    }
    while (inflight.size >= 256) await Promise.race(inflight);
  }
  await Promise.all(inflight);
  const publishedMs = Date.now() - t0;
  const stats = rx.stats(t.eventsPath);
  const allDelivered = await until(
    () => valid.every((id) => stats.okEvents.has(id)),
    Math.max(60_000, 120_000 * scale.factor),
  );
  let drainedAt: number | undefined;
  let dead = 0;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    dead = (await deadLetters(cluster).catch(() => deadBefore)) - deadBefore;
    if ((await backlog(cluster)) === 0 && dead >= poison) {
      drainedAt = Date.now();
      break;
    }
    await sleep(250);
  }
  const delivered = valid.filter((id) => stats.okEvents.has(id)).length;
  const deliveredMs = (allDelivered ?? Date.now()) - t0;
  return finish(
    {
      name,
      eventsPublished: poison + valid.length,
      eventsLost: valid.length - delivered,
      duplicates: duplicates(stats),
      deliveryRecoveryMs: drainedAt === undefined ? -1 : drainedAt - t0,
      figures: {
        poisonPublished: poison,
        validPublished: valid.length,
        validDelivered: delivered,
        publishSeconds: +(publishedMs / 1000).toFixed(1),
        allValidDeliveredSeconds: allDelivered === undefined ? null : +(deliveredMs / 1000).toFixed(1),
        validDeliveredPerSecond: +((delivered * 1000) / Math.max(1, deliveredMs)).toFixed(0),
        deadLettered: dead,
        backlogDrainedSeconds: drainedAt === undefined ? null : +((drainedAt - t0) / 1000).toFixed(1),
      },
    },
    started,
    {
      'every valid event delivered': delivered === valid.length,
      'every poison event dead-lettered': dead >= poison,
      'events backlog drained': drainedAt !== undefined,
    },
  );
}
