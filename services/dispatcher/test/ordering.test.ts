// Ordering by key through the real stack (gateway, webhooks and applications services, NATS, two
// dispatcher replicas): a subscription with `ordering: {key: "messageId"}` gets the delivery reports
// of one message in the order they were published, a refused report holds back only the later
// reports of its own message, and a report that ends failed marks the next one `previousFailed`.
import { describe, expect, it } from 'vitest';
import {
  metricSum,
  useDeliveryStack,
  waitFor,
  type Receiver,
  type Received,
  type Services,
  type TestAccount,
} from '../../../test/support';
import { keyHash, ORDERING_BUCKET, ORDERING_STREAM, orderingHeldSubject } from '@switchboard/contracts';
import { eventsHandled, TEST_DISPATCHER_ENV } from './harness';

let s: Services<{ webhooks: true; gateway: true }>;
let rx: Receiver;
useDeliveryStack({ gateway: true }, (f) => ({ stack: s, rx } = f));

async function subscribe(account: TestAccount, path: string, ordering: Record<string, unknown>): Promise<string> {
  const res = await s.request(account, 'POST', '/v1/webhooks', {
    event: 'smsdlr',
    resource: 'sms',
    targetUrl: rx.url(path),
    ordering,
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { href: string }).href.split('/').pop()!;
}

const report = (accountId: string, messageId: string, n: number) => ({
  id: `${messageId || 'nokey'}-r${n}`,
  accountId,
  resource: 'sms',
  timestamp: '2026-03-01T10:00:00.000Z',
  data: messageId ? { messageId, status: `s${n}` } : { status: `s${n}` },
});

const idOf = (r: Received) => (r.body as { id: string }).id;

/** The keys (their hashes) of the subscription that have a line in the ordering bucket. */
async function linesOf(subscriptionId: string): Promise<string[]> {
  const info = await s.bus.jsm.streams.info(ORDERING_STREAM, {
    subjects_filter: `$KV.${ORDERING_BUCKET}.k.${subscriptionId}.*`,
  });
  return Object.keys(info.state.subjects ?? {}).map((subject) => subject.split('.').pop()!);
}

describe('ordering by key', () => {
  it("when a message's first report is refused, then its later reports wait for it while another message's reports are delivered, and all arrive in order with increasing webhook-sequence", async () => {
    const env = { ...TEST_DISPATCHER_ENV, DELIVERY_RETRY_SCHEDULE: '500ms,500ms,500ms,500ms,500ms,500ms,500ms,500ms' };
    const replicas = [await s.startDispatcher(env), await s.startDispatcher(env)];
    try {
      const acct = await s.createAccount();
      const path = `/${acct.id}/ordered`;
      await subscribe(acct, path, { key: 'messageId' });
      let up = false;
      const refused = new Set<string>();
      rx.on(path, (req) => {
        if (idOf(req) === 'm1-r1' && !up) {
          refused.add(idOf(req));
          return 503;
        }
        return 204;
      });

      // Interleaved: m1's first report is refused; m2's reports and the report without the key go on.
      for (let n = 1; n <= 3; n++) {
        await s.publish('sms.dlr', report(acct.id, 'm1', n));
        await s.publish('sms.dlr', report(acct.id, 'm2', n));
      }
      await s.publish('sms.dlr', report(acct.id, '', 9));
      await waitFor(() => rx.delivered(path).size >= 4, {
        what: "m2's reports and the unkeyed one",
        timeoutMs: 15_000,
      });
      await eventsHandled(s.bus);
      expect(refused.has('m1-r1')).toBe(true);
      // m1's later reports are held: not one attempt of them yet.
      expect(
        rx
          .at(path)
          .map(idOf)
          .filter((id) => id === 'm1-r2' || id === 'm1-r3'),
      ).toEqual([]);
      expect(
        rx
          .at(path)
          .map(idOf)
          .filter((id) => id.startsWith('m2-')),
      ).toEqual(['m2-r1', 'm2-r2', 'm2-r3']);

      // The receiver takes m1-r1 again: its retry goes, then m1-r2 and m1-r3, in order.
      const upAt = Date.now();
      up = true;
      await waitFor(() => rx.delivered(path).size === 7, { what: 'all seven reports delivered', timeoutMs: 20_000 });
      const m1 = rx.at(path).filter((r) => idOf(r).startsWith('m1-') && r.at >= upAt);
      expect(m1.map(idOf)).toEqual(['m1-r1', 'm1-r2', 'm1-r3']);
      // webhook-sequence: one up per report of a message; none without the key.
      const seqs = m1.map((r) => Number(r.headers['webhook-sequence']));
      expect(seqs[1]).toBe(seqs[0]! + 1);
      expect(seqs[2]).toBe(seqs[1]! + 1);
      const m2 = rx.at(path).filter((r) => idOf(r).startsWith('m2-'));
      const m2seqs = m2.map((r) => Number(r.headers['webhook-sequence']));
      expect(m2seqs[1]).toBe(m2seqs[0]! + 1);
      expect(m2seqs[2]).toBe(m2seqs[1]! + 1);
      const unkeyed = rx.at(path).find((r) => idOf(r) === 'nokey-r9')!;
      expect(unkeyed.headers['webhook-sequence']).toBeUndefined();
      expect(rx.at(path).some((r) => (r.body as { previousFailed?: boolean }).previousFailed)).toBe(false);
      let held = 0;
      let woken = 0;
      for (const d of replicas) {
        held += metricSum(await d.metrics(), 'dispatcher_ordering_held_total');
        woken += metricSum(await d.metrics(), 'dispatcher_ordering_woken_total');
      }
      // m1-r2 and m1-r3 waited (m2's later reports may have waited a moment behind m2-r1 too); each was woken once.
      expect(held).toBeGreaterThanOrEqual(2);
      expect(woken).toBe(held);
    } finally {
      for (const d of replicas) await d.stop();
    }
  }, 60_000);

  it("when a report's retries run out, then the next report of its message carries previousFailed: true, and the one after does not", async () => {
    const env = { ...TEST_DISPATCHER_ENV, DELIVERY_RETRY_SCHEDULE: '300ms,300ms' };
    const d = await s.startDispatcher(env);
    try {
      const acct = await s.createAccount();
      const path = `/${acct.id}/failing`;
      await subscribe(acct, path, { key: 'messageId' });
      rx.on(path, (req) => (idOf(req) === 'm3-r1' ? 500 : 204));
      await s.publish('sms.dlr', report(acct.id, 'm3', 1));
      await s.publish('sms.dlr', report(acct.id, 'm3', 2));
      await waitFor(() => rx.delivered(path).has('m3-r2') || rx.at(path).some((r) => idOf(r) === 'm3-r2'), {
        what: 'm3-r2 delivered after m3-r1 failed',
        timeoutMs: 15_000,
      });
      const attempts = rx.at(path).map(idOf);
      // m3-r1: the first attempt and its two retries, all before m3-r2.
      expect(attempts).toEqual(['m3-r1', 'm3-r1', 'm3-r1', 'm3-r2']);
      const r2 = rx.at(path).find((r) => idOf(r) === 'm3-r2')!;
      expect((r2.body as { previousFailed?: boolean }).previousFailed).toBe(true);

      // The next one, published after: delivered at once, without the flag.
      await s.publish('sms.dlr', report(acct.id, 'm3', 3));
      await waitFor(() => rx.at(path).some((r) => idOf(r) === 'm3-r3'), { what: 'm3-r3', timeoutMs: 10_000 });
      const r3 = rx.at(path).find((r) => idOf(r) === 'm3-r3')!;
      expect((r3.body as { previousFailed?: boolean }).previousFailed).toBeUndefined();
      const [s1, s2, s3] = ['m3-r1', 'm3-r2', 'm3-r3'].map((id) =>
        Number(rx.at(path).find((r) => idOf(r) === id)!.headers['webhook-sequence']),
      );
      // One up from the failed report; the key was idle after m3-r2, and its numbers go on increasing.
      expect(s2! - s1!).toBe(1);
      expect(s3!).toBeGreaterThan(s2!);
    } finally {
      await d.stop();
    }
  }, 60_000);

  it('when a delivery is held past maxHoldSeconds, then it ends as failed (held_too_long), the next report carries previousFailed: true, and the failed delivery reads and resends', async () => {
    // Retries an hour apart: only the hold ends the refused report.
    const d = await s.startDispatcher({ ...TEST_DISPATCHER_ENV, DELIVERY_RETRY_SCHEDULE: '1h' });
    try {
      const acct = await s.createAccount();
      const path = `/${acct.id}/hold`;
      const sub = await subscribe(acct, path, { key: 'messageId', maxHoldSeconds: 1 });
      rx.on(path, (req) => (idOf(req) === 'm5-r1' ? 503 : 204));
      await s.publish('sms.dlr', report(acct.id, 'm5', 1));
      await s.publish('sms.dlr', report(acct.id, 'm5', 2));
      await waitFor(() => rx.at(path).some((r) => idOf(r) === 'm5-r2'), { what: 'm5-r2', timeoutMs: 15_000 });
      const r2 = rx.at(path).find((r) => idOf(r) === 'm5-r2')!;
      expect((r2.body as { previousFailed?: boolean }).previousFailed).toBe(true);
      const failed = await waitFor(
        async () => {
          const list = await s.listAll<{ id: string; error: string | null }>(
            acct,
            `/v1/webhooks/${sub}/deliveries?outcome=failed&limit=100`,
          );
          return list.length > 0 && list;
        },
        { what: 'the held record', timeoutMs: 10_000 },
      );
      expect(failed[0]!.error).toMatch(/^held_too_long: /);
      expect(metricSum(await d.metrics(), 'dispatcher_deliveries_ended_total', { reason: 'held_too_long' })).toBe(1);
      // The failed delivery of the ordered subscription reads, and resends, like any other.
      const { id } = failed[0]!;
      const read = await s.request(acct, 'GET', `/v1/webhooks/${sub}/deliveries/${id}`);
      expect(read.status).toBe(200);
      expect(((await read.json()) as { id: string }).id).toBe(id);
      const resent = await s.request(acct, 'POST', `/v1/webhooks/${sub}/deliveries/${id}/resend`);
      expect(resent.status).toBe(202);
    } finally {
      await d.stop();
    }
  }, 60_000);

  it("when a key's last delivery failed, then its next report within DELIVERY_ORDERING_FAILURE_MEMORY carries previousFailed, and once the key stayed idle past it the key is forgotten: its line leaves the bucket and its next report goes without the flag", async () => {
    const d = await s.startDispatcher({
      ...TEST_DISPATCHER_ENV,
      DELIVERY_RETRY_SCHEDULE: '100ms',
      DELIVERY_ORDERING_FAILURE_MEMORY: '6s',
    });
    try {
      const acct = await s.createAccount();
      const path = `/${acct.id}/memory`;
      const sub = await subscribe(acct, path, { key: 'messageId' });
      rx.on(path, (req) => (idOf(req).endsWith('-r1') ? 500 : 204));
      const lines = () => linesOf(sub);
      const failed = async (key: string) => {
        await s.publish('sms.dlr', report(acct.id, key, 1));
        await waitFor(
          async () =>
            (await lines()).includes(keyHash(`s:${key}`)) &&
            rx.at(path).filter((r) => idOf(r) === `${key}-r1`).length === 2,
          {
            what: `${key}-r1 failed after its retry, its failure kept`,
            timeoutMs: 10_000,
          },
        );
      };
      const flagOf = async (id: string) => {
        await waitFor(() => rx.at(path).some((r) => idOf(r) === id), { what: id, timeoutMs: 10_000 });
        return (rx.at(path).find((r) => idOf(r) === id)!.body as { previousFailed?: boolean }).previousFailed;
      };

      await failed('near');
      await failed('far');
      // Within the memory: the next report of 'near' carries the failure.
      await s.publish('sms.dlr', report(acct.id, 'near', 2));
      expect(await flagOf('near-r2')).toBe(true);
      // 'far' stays idle past it: forgotten (its line deleted, counted).
      await waitFor(async () => !(await lines()).includes(keyHash('s:far')), {
        what: "'far' forgotten",
        timeoutMs: 20_000,
      });
      expect(await metricSum(await d.metrics(), 'dispatcher_ordering_failures_forgotten_total')).toBeGreaterThanOrEqual(
        1,
      );
      await s.publish('sms.dlr', report(acct.id, 'far', 2));
      expect(await flagOf('far-r2')).toBeUndefined();
    } finally {
      await d.stop();
    }
  }, 60_000);

  it('when a held marker is left that no line points at, then the sweep removes it after its grace, and the marker of a key still held stays', async () => {
    const d = await s.startDispatcher({
      ...TEST_DISPATCHER_ENV,
      DELIVERY_RETRY_SCHEDULE: '1h',
      DELIVERY_ORDERING_FAILURE_MEMORY: '2s',
    });
    try {
      const acct = await s.createAccount();
      const path = `/${acct.id}/markers`;
      const sub = await subscribe(acct, path, { key: 'messageId' });
      rx.on(path, () => 503);
      const marker = async (key: string) =>
        (
          await s.bus.jsm.streams
            .getMessage(ORDERING_STREAM, { last_by_subj: orderingHeldSubject(sub, keyHash(`s:${key}`)) })
            .catch(() => null)
        )?.seq;
      // 'held' fails and waits an hour for its retry: its key is held, its line points at its marker.
      await s.publish('sms.dlr', report(acct.id, 'held', 1));
      const held = await waitFor(() => marker('held'), { what: "'held' marked held" });
      // A marker no line points at, as a failed delete leaves it.
      await s.bus.js.publish(orderingHeldSubject(sub, keyHash('s:orphan')), JSON.stringify({ at: Date.now() }));
      expect(await marker('orphan')).toBeGreaterThan(0);
      await waitFor(async () => (await marker('orphan')) === undefined, {
        what: 'the orphaned marker removed',
        timeoutMs: 20_000,
      });
      expect(await marker('held')).toBe(held);
      await waitFor(
        async () => {
          const res = await s.request(acct, 'GET', `/v1/webhooks/${sub}/stats?window=1h&bucket=5m`);
          return ((await res.json()) as { ordering?: { heldKeys: number } }).ordering?.heldKeys === 1;
        },
        { what: 'one held key in the stats' },
      );
    } finally {
      await d.stop();
    }
  }, 60_000);

  it('when failed keys fill the ordering bucket to 90%, then new keys go out unordered (counted, still delivered) and the bucket stays within its bound, and once the failures are forgotten new keys are ordered again', async () => {
    const d = await s.startDispatcher({
      ...TEST_DISPATCHER_ENV,
      DELIVERY_RETRY_SCHEDULE: '100ms',
      DELIVERY_ORDERING_FAILURE_MEMORY: '20s',
      // The failing host keeps its circuit breaker closed: its keys fail at once, one after another.
      DELIVERY_BREAKER_VOLUME_THRESHOLD: '1000',
    });
    const stream = await s.bus.jsm.streams.info(ORDERING_STREAM);
    const MAX = 8192;
    try {
      const acct = await s.createAccount();
      const path = `/${acct.id}/full`;
      const sub = await subscribe(acct, path, { key: 'messageId' });
      rx.on(path, (req) => (idOf(req).startsWith('f') ? 500 : 204));
      const metric = async (name: string, labels?: Record<string, string>) =>
        metricSum(await d.metrics(), name, labels);
      const full = async () => (await metric('dispatcher_ordering_unordered_total', { reason: 'bucket_full' })) >= 1;
      // The bucket made small, as a small NATS_KV_MAX_BYTES would make it.
      await s.bus.jsm.streams.update(ORDERING_STREAM, { ...stream.config, max_bytes: MAX });
      // (read by the dispatcher's stream poll, every 5 s)
      await new Promise((r) => setTimeout(r, 5500));
      // Failed keys fill it, four at a time, each keeping its line, until a key finds it full.
      // It never reaches max_bytes, where NATS 2.9 would drop its oldest line: the dispatcher counts
      // the lines it starts between two reads of the bucket.
      let n = 0;
      let peak = 0;
      while (!(await full())) {
        expect(n, 'keys failed before the bucket was full').toBeLessThan(100);
        const batch = [1, 2, 3, 4].map((i) => `f${n + i}`);
        n += batch.length;
        await Promise.all(batch.map((key) => s.publish('sms.dlr', report(acct.id, key, 1))));
        await waitFor(() => batch.every((key) => rx.at(path).filter((r) => idOf(r) === `${key}-r1`).length >= 1), {
          what: `${batch.join(', ')} attempted`,
        });
        peak = Math.max(peak, (await s.bus.jsm.streams.info(ORDERING_STREAM)).state.bytes);
      }
      console.log(`ordering bucket: ${n} failing keys sent, at most ${peak} of ${MAX} bytes held`);
      expect(peak).toBeLessThanOrEqual(0.95 * MAX);
      expect((await linesOf(sub)).length).toBeGreaterThan(5);
      // A healthy key meanwhile: delivered at once, unordered (no webhook-sequence).
      const sequenceOf = async (id: string) => {
        await waitFor(() => rx.at(path).some((r) => idOf(r) === id), { what: id, timeoutMs: 10_000 });
        return rx.at(path).find((r) => idOf(r) === id)!.headers['webhook-sequence'];
      };
      await s.publish('sms.dlr', report(acct.id, 'g1', 1));
      expect(await sequenceOf('g1-r1')).toBeUndefined();
      // The failures are forgotten after 20 s: the bucket empties, and a new key is ordered again.
      await waitFor(async () => (await linesOf(sub)).length === 0, {
        what: 'the failed keys forgotten',
        timeoutMs: 30_000,
      });
      expect(await metric('dispatcher_ordering_failures_forgotten_total')).toBeGreaterThan(5);
      // (the stream poll reads the bucket's fill every 5 s)
      await new Promise((r) => setTimeout(r, 6000));
      await s.publish('sms.dlr', report(acct.id, 'g2', 1));
      expect(Number(await sequenceOf('g2-r1'))).toBeGreaterThan(0);
    } finally {
      await s.bus.jsm.streams.update(ORDERING_STREAM, stream.config);
      await d.stop();
    }
  }, 120_000);

  it('when a subscription holds its most keys, then a key that begins to wait is not held and its new events go out at once (counted), a key past its most waiting too, and the stats report the held keys', async () => {
    const d = await s.startDispatcher({
      ...TEST_DISPATCHER_ENV,
      DELIVERY_RETRY_SCHEDULE: '1h',
      DELIVERY_ORDERING_MAX_HELD_KEYS: '2',
      DELIVERY_ORDERING_MAX_WAITING_PER_KEY: '1',
    });
    try {
      const acct = await s.createAccount();
      const path = `/${acct.id}/cap`;
      const sub = await subscribe(acct, path, { key: 'messageId' });
      rx.on(path, (req) => (idOf(req).endsWith('-r1') ? 503 : 204));
      const stats = async () => {
        const res = await s.request(acct, 'GET', `/v1/webhooks/${sub}/stats?window=1h&bucket=5m`);
        expect(res.status).toBe(200);
        return ((await res.json()) as { ordering?: { heldKeys: number } }).ordering;
      };
      const metric = async (name: string, labels?: Record<string, string>) =>
        metricSum(await d.metrics(), name, labels);
      // k1 and k2 begin to wait and are held; k3 finds the subscription at its two.
      for (const [i, k] of ['k1', 'k2'].entries()) {
        await s.publish('sms.dlr', report(acct.id, k, 1));
        await waitFor(async () => (await stats())?.heldKeys === i + 1, { what: `${k} held`, timeoutMs: 10_000 });
      }
      await s.publish('sms.dlr', report(acct.id, 'k3', 1));
      await waitFor(async () => (await metric('dispatcher_ordering_keys_over_cap_total')) === 1, {
        what: 'k3 over the cap',
        timeoutMs: 10_000,
      });
      expect((await stats())?.heldKeys).toBe(2);

      // k1's and k2's next reports wait; k3's goes out at once, unordered; k1's third is past its most waiting.
      for (const k of ['k1', 'k2', 'k3']) await s.publish('sms.dlr', report(acct.id, k, 2));
      await s.publish('sms.dlr', report(acct.id, 'k1', 3));
      await waitFor(() => rx.delivered(path).size === 2, { what: 'k3-r2 and k1-r3 delivered', timeoutMs: 10_000 });
      await eventsHandled(s.bus);
      expect(
        rx
          .at(path)
          .map(idOf)
          .filter((id) => !id.endsWith('-r1'))
          .sort(),
      ).toEqual(['k1-r3', 'k3-r2']);
      expect(await metric('dispatcher_ordering_unordered_total', { reason: 'held_keys_full' })).toBe(1);
      expect(await metric('dispatcher_ordering_unordered_total', { reason: 'key_full' })).toBe(1);
      expect(await metric('dispatcher_ordering_held_total')).toBe(2);
    } finally {
      await d.stop();
    }
  }, 60_000);

  it('when a recovery resends the failed reports of four messages through two dispatchers, then each message gets its reports one after the other in their original order, with increasing webhook-sequence', async () => {
    const env = { ...TEST_DISPATCHER_ENV, DELIVERY_RETRY_SCHEDULE: '100ms' };
    const replicas = [await s.startDispatcher(env), await s.startDispatcher(env)];
    try {
      const acct = await s.createAccount();
      const path = `/${acct.id}/recovered`;
      const sub = await subscribe(acct, path, { key: 'messageId' });
      const since = new Date(Date.now() - 1000).toISOString();
      let down = true;
      // While up: the first report of each message is answered slowly; the receiver notes any
      // report that arrives while another of its message is still being answered.
      const busyUntil = new Map<string, number>();
      const overlaps: string[] = [];
      rx.on(path, (req) => {
        if (down) return 503;
        const id = idOf(req);
        const message = id.split('-')[0]!;
        if ((busyUntil.get(message) ?? 0) > req.at) overlaps.push(id);
        const delayMs = id.endsWith('-r1') ? 400 : 0;
        busyUntil.set(message, req.at + delayMs);
        return { status: 204, delayMs };
      });
      const counts = [
        ['m8', 4],
        ['m9', 3],
        ['m10', 3],
        ['m11', 4],
      ] as const;
      // Interleaved, as a busy account publishes them.
      const sent = [1, 2, 3, 4].flatMap((n) =>
        counts.filter(([, c]) => n <= c).map(([message]) => report(acct.id, message, n)),
      );
      for (const e of sent) await s.publish('sms.dlr', e);
      // Every report fails (an attempt and its retry each, in turn).
      await waitFor(() => rx.at(path).length === 2 * sent.length, {
        what: 'two attempts of each report',
        timeoutMs: 30_000,
      });
      const dryRun = async () => {
        const res = await s.request(acct, 'POST', `/v1/webhooks/${sub}/recover`, { since, dryRun: true });
        expect(res.status).toBe(200);
        return ((await res.json()) as { matched: number }).matched;
      };
      await waitFor(async () => (await dryRun()) === sent.length, {
        what: 'all the reports failed and recorded',
        timeoutMs: 30_000,
      });

      down = false;
      const upAt = Date.now();
      const res = await s.request(acct, 'POST', `/v1/webhooks/${sub}/recover`, { since });
      expect(res.status, await res.clone().text()).toBe(202);
      await waitFor(() => rx.delivered(path).size === sent.length, { what: 'every report resent', timeoutMs: 30_000 });
      const resent = rx.at(path).filter((r) => r.at >= upAt);
      for (const [message, n] of counts) {
        const of = resent.filter((r) => idOf(r).startsWith(`${message}-`));
        expect(of.map(idOf)).toEqual(Array.from({ length: n }, (_, i) => `${message}-r${i + 1}`));
        const seqs = of.map((r) => Number(r.headers['webhook-sequence']));
        for (let i = 1; i < n; i++) expect(seqs[i]).toBeGreaterThan(seqs[i - 1]!);
      }
      expect(overlaps).toEqual([]);
    } finally {
      for (const d of replicas) await d.stop();
    }
  }, 90_000);

  it("when the dispatcher holding a key is killed (SIGKILL) and another starts, then the key's reports, those it held and one published after, arrive in order", async () => {
    const first = await s.spawnDispatcher(TEST_DISPATCHER_ENV);
    let second: { stop(): Promise<void> } | undefined;
    try {
      const acct = await s.createAccount();
      const path = `/${acct.id}/restart`;
      await subscribe(acct, path, { key: 'messageId' });
      let hang = true;
      rx.on(path, (req) => (hang && idOf(req) === 'm7-r1' ? 'hang' : 204));
      await s.publish('sms.dlr', report(acct.id, 'm7', 1));
      await waitFor(() => rx.at(path).some((r) => idOf(r) === 'm7-r1'), { what: 'm7-r1 attempted', timeoutMs: 15_000 });
      // r2 and r3 wait behind r1, which the receiver does not answer.
      await s.publish('sms.dlr', report(acct.id, 'm7', 2));
      await s.publish('sms.dlr', report(acct.id, 'm7', 3));
      const held = async () =>
        metricSum(
          await (await fetch(`http://127.0.0.1:${first.opsPort}/metrics`)).text(),
          'dispatcher_ordering_held_total',
        );
      await waitFor(async () => (await held()) === 2, { what: 'r2 and r3 waiting', timeoutMs: 15_000 });

      await first.kill9();
      const killedAt = Date.now();
      expect(rx.at(path).map(idOf)).toEqual(['m7-r1']);
      hang = false;
      // Published after the crash: it reaches the new dispatcher before the killed one's reports come back.
      await s.publish('sms.dlr', report(acct.id, 'm7', 4));
      second = await s.startDispatcher(TEST_DISPATCHER_ENV);
      await waitFor(() => rx.delivered(path).size === 4, { what: 'the four reports delivered', timeoutMs: 40_000 });
      const after = rx.at(path).filter((r) => r.at >= killedAt);
      expect(after.map(idOf)).toEqual(['m7-r1', 'm7-r2', 'm7-r3', 'm7-r4']);
      const seqs = after.map((r) => Number(r.headers['webhook-sequence']));
      for (let i = 1; i < 4; i++) expect(seqs[i]).toBe(seqs[i - 1]! + 1);
    } finally {
      await first.stop();
      await second?.stop();
    }
  }, 90_000);
});
