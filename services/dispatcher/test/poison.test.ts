// Poison events (docs/events.md#inbound): events the services refuse for good are dead-lettered to
// events.dead and terminated at once; valid events around them are all delivered and the events
// consumer's backlog drains (before, each was nak'ed every second forever and held a slot of
// max_ack_pending).
import { describe, expect, it } from 'vitest';
import { STREAMS, SUBJECTS } from '@switchboard/events';
import { metricSum, poisonEvent, waitFor, type Receiver, type RunningDispatcher } from '../../../test/support';
import { CONSUMERS } from '../src/streams';
import { cdrEvent, useHarness, type Harness } from './harness';

let h: Harness;
let rx: Receiver;
let dispatcher: RunningDispatcher;

useHarness((f) => ({ h, rx, dispatcher } = f), { DELIVERY_CONCURRENCY: '16', DELIVERY_HOST_CONCURRENCY: '16' });

describe('poison events', () => {
  it('when poison is interleaved with valid events, then every valid one is delivered, the poison is dead-lettered and the backlog drains', async () => {
    const acct = await h.newAccount();
    await h.subscribe(acct, { event: 'cdrCreated', resource: 'all', targetUrl: rx.url(`/poison/${acct}`) });
    const valid = 60;
    const bad = 240;
    const core = await h.bus.jsm.streams.info(STREAMS.core.name);
    const deadBefore = core.state.last_seq;
    for (let i = 0, v = 0; i < bad; i++) {
      await h.publish('cdr.created', poisonEvent(i, acct));
      if (i % 4 === 0 && v < valid) await h.publish('cdr.created', cdrEvent(acct, { id: `ok-${v++}` }));
    }
    await waitFor(() => rx.delivered(`/poison/${acct}`).size === valid, {
      timeoutMs: 30_000,
      what: 'valid events delivered',
    });
    const ids = new Set(rx.at(`/poison/${acct}`).map((r) => (r.body as { id: string }).id));
    expect([...ids].sort()).toEqual(Array.from({ length: valid }, (_, i) => `ok-${i}`).sort());

    // Nothing stays unacknowledged: no poison comes back.
    await waitFor(
      async () => {
        const c = await h.bus.jsm.consumers.info(STREAMS.events.name, CONSUMERS.events);
        return c.num_ack_pending === 0 && c.num_pending === 0;
      },
      { timeoutMs: 15_000, what: 'events consumer drained' },
    );
    expect(
      metricSum(await dispatcher.metrics(), 'dispatcher_events_dead_lettered_total', { subject: 'cdr.created' }),
    ).toBe(bad);

    // Each dead letter says where the event came from, why it was refused, and carries the event.
    const after = await waitFor(async () => {
      const s = await h.bus.jsm.streams.info(STREAMS.core.name);
      return s.state.last_seq - deadBefore >= bad ? s : false;
    });
    const letters: Array<{ subject: string; reason: string; event: unknown; seq: number }> = [];
    for (let seq = deadBefore + 1; seq <= after.state.last_seq; seq++) {
      const m = await h.bus.jsm.streams.getMessage(STREAMS.core.name, { seq });
      if (m?.subject === SUBJECTS.eventDead) letters.push(m.json());
    }
    expect(letters).toHaveLength(bad);
    const byId = new Map(
      letters.map((l) => [
        typeof l.event === 'object' && l.event ? (l.event as { id: string }).id : String(l.event),
        l,
      ]),
    );
    expect(byId.get('p0')).toMatchObject({
      subject: 'cdr.created',
      reason: expect.stringMatching(/accountId/),
      event: { accountId: '0' },
    });
    expect(byId.get('p1')?.reason).toMatch(/accountId/);
    expect(byId.get('p2')?.reason).toMatch(/applicationId/);
    expect(byId.get('p\u00003')?.reason).toMatch(/^id: .*control characters/);
    expect(byId.get('p4')?.reason).toMatch(/deeper than 32 levels/);
    expect(letters.find((l) => l.event === `{"id":"p5", not json`)?.reason).toBe('body is not valid JSON');

    // Republishing a corrected dead letter delivers it.
    const fixed = { ...(byId.get('p1')!.event as Record<string, unknown>), accountId: acct, id: 'republished' };
    await h.publish(byId.get('p1')!.subject, fixed);
    await waitFor(() => rx.at(`/poison/${acct}`).some((r) => (r.body as { id: string }).id === 'republished'), {
      what: 'republished event delivered',
    });
  });
});
