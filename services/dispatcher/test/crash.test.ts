// At-least-once across a crash (docs/events.md#delivery): the dispatcher process is killed with SIGKILL in
// the middle of a burst of 2,000 events and started again; every event reaches the target, and
// duplicates carry the same webhook-id.
import { describe, expect, it } from 'vitest';
import { jetstreamManager } from '@nats-io/jetstream';
import pg from 'pg';
import { waitFor, type Receiver } from '../../../test/support';
import { CONSUMERS, DELIVERIES_STREAM } from '../src/streams';
import { cdrEvent, useHarness, type Harness } from './harness';

let h: Harness;
let rx: Receiver;

useHarness((f) => ({ h, rx } = f));

const TOTAL = 2000;

async function publishAll(acct: string, from: number, to: number, prefix: string): Promise<void> {
  const batch = 100;
  for (let i = from; i < to; i += batch) {
    await Promise.all(
      Array.from({ length: Math.min(batch, to - i) }, (_, k) =>
        h.publish('cdr.created', cdrEvent(acct, { id: `${prefix}-${i + k}` })),
      ),
    );
  }
}

describe('crash of the dispatcher', () => {
  it('when the dispatcher is killed -9 mid-burst and restarted, then every one of 2,000 events is delivered at least once', async () => {
    const acct = await h.newAccount();
    const path = `/burst/${acct}`;
    const sub = await h.subscribe(acct, { event: 'cdrCreated', resource: 'all', targetUrl: rx.url(path) });
    const first = await h.spawnDispatcher();

    const publishing = publishAll(acct, 0, TOTAL, 'crash');
    await waitFor(() => rx.delivered(path).size >= 300, {
      what: '300 deliveries before the crash',
      timeoutMs: 30_000,
      intervalMs: 5,
    });
    await first.kill9();
    const atCrash = rx.delivered(path).size;
    expect(atCrash).toBeLessThan(TOTAL);
    await publishing;

    await h.spawnDispatcher();
    await waitFor(() => rx.delivered(path).size === TOTAL, {
      what: `${TOTAL} distinct webhook-ids`,
      timeoutMs: 60_000,
      intervalMs: 100,
    });

    const reqs = rx.at(path);
    const eventIds = new Set(reqs.map((r) => r.body.id as string));
    expect(eventIds.size).toBe(TOTAL);
    // one webhook-id per event: duplicates (re-sent after the crash) reuse it
    const idsByEvent = new Map<string, Set<string>>();
    for (const r of reqs) {
      const s = idsByEvent.get(r.body.id) ?? new Set();
      s.add(String(r.headers['webhook-id']));
      idsByEvent.set(r.body.id, s);
    }
    expect([...idsByEvent.values()].every((s) => s.size === 1)).toBe(true);
    console.log(
      `crash test: ${atCrash} delivered before kill -9, ${reqs.length - TOTAL} duplicate POSTs of ${reqs.length}`,
    );

    // nothing left behind in JetStream
    const jsm = await jetstreamManager(h.bus.nc);
    await waitFor(
      async () => {
        const infos = await Promise.all([
          jsm.consumers.info('SWITCHBOARD_INBOUND', CONSUMERS.events),
          jsm.consumers.info(DELIVERIES_STREAM, CONSUMERS.retry),
          jsm.consumers.info(DELIVERIES_STREAM, CONSUMERS.records),
        ]);
        return infos.every((i) => i.num_pending === 0 && i.num_ack_pending === 0);
      },
      { what: 'consumers drained', timeoutMs: 30_000, intervalMs: 200 },
    );
    // ... and every delivery recorded, once per attempt
    const sql = new pg.Client({ connectionString: h.db.url });
    await sql.connect();
    try {
      const counts = async () =>
        (
          await sql.query(
            `select count(distinct message_id)::int as messages, count(*)::int as records from webhooks.deliveries where subscription_id = $1 and outcome = 'succeeded'`,
            [sub.id],
          )
        ).rows[0] as { messages: number; records: number };
      await waitFor(async () => (await counts()).messages === TOTAL, {
        what: 'all records',
        timeoutMs: 30_000,
        intervalMs: 200,
      }).catch(() => undefined);
      expect(await counts()).toEqual({ messages: TOTAL, records: TOTAL });
    } finally {
      await sql.end();
    }
  }, 120_000);

  it('when the dispatcher gets SIGTERM mid-burst, then it drains and exits 0, and a new one delivers the rest without duplicates', async () => {
    const acct = await h.newAccount();
    const path = `/drain/${acct}`;
    rx.on(path, () => 200);
    await h.subscribe(acct, { event: 'cdrCreated', resource: 'all', targetUrl: rx.url(path) });
    const d = await h.spawnDispatcher();
    const total = 600;
    const publishing = publishAll(acct, 0, total, 'drain');
    await waitFor(() => rx.delivered(path).size >= 100, { what: '100 deliveries', timeoutMs: 30_000, intervalMs: 5 });
    const exit = new Promise<number | null>((r) => d.child.once('exit', (code) => r(code)));
    const t0 = Date.now();
    d.child.kill('SIGTERM');
    expect(await exit).toBe(0);
    const drainMs = Date.now() - t0;
    await d.stop();
    await publishing;
    await h.spawnDispatcher();
    await waitFor(() => rx.delivered(path).size === total, {
      what: `${total} deliveries`,
      timeoutMs: 30_000,
      intervalMs: 50,
    });
    const posts = rx.at(path).length;
    console.log(`drain test: exited 0 after ${drainMs} ms; ${posts - total} duplicate POSTs of ${posts}`);
    // attempts in flight at SIGTERM finished and were acknowledged: nothing was sent twice
    expect(posts).toBe(total);
  }, 90_000);
});
