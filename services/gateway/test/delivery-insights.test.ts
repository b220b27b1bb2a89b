// Delivery search, one record with the body sent and the receiver's answer, and delivery statistics
// (docs/api.md#delivery-search-and-statistics), through the real gateway, webhooks and applications
// services, a dispatcher, Postgres and NATS: deliveries that succeed, succeed after a retry, and
// fail after their retries; then the records are searched and counted against the statistics.
import { beforeAll, describe, expect, it } from 'vitest';
import { ensurePartitionFor } from '@switchboard/db';
import { dropExpiredDeliveries } from '../../webhooks/src/deliveries/partitions';
import {
  queryDatabase,
  randomName,
  useDeliveryStack,
  waitFor,
  type JsonBody,
  type Receiver,
  type Services,
  type TestAccount,
} from '../../../test/support';

let stack: Services<{ gateway: true; webhooks: true; dispatcher: true }>;
let rx: Receiver;
let alice: TestAccount, bob: TestAccount;
let subId: string;
type Rec = Record<string, JsonBody>;
let records: Rec[];
const target = `/insights/${randomName('t')}`;
const BIG = 'é'.repeat(5000);

const json = async (res: Response) => (await res.json()) as Rec;

async function problem(res: Response, status: number): Promise<Rec> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  return json(res);
}

async function list(query = ''): Promise<Rec[]> {
  const res = await stack.request(alice, 'GET', `/v1/webhooks/${subId}/deliveries${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Rec[];
}

useDeliveryStack(
  {
    gateway: true,
    dispatcher: true,
    dispatcherEnv: {
      // One retry, 100 ms after the first attempt: a delivery fails after two attempts.
      DELIVERY_RETRY_SCHEDULE: '100ms',
      DELIVERY_TIMEOUT_MS: '2000',
      RECORD_FLUSH_INTERVAL: '20ms',
      DELIVERY_BREAKER_VOLUME_THRESHOLD: '1000',
    },
  },
  (f) =>
    ({
      stack,
      rx,
      accounts: [alice, bob],
    } = f),
  ['alice', 'bob'],
);
beforeAll(async () => {
  const res = await stack.request(alice, 'POST', '/v1/webhooks', {
    event: 'cdrCreated',
    resource: 'all',
    targetUrl: rx.url(target),
  });
  expect(res.status).toBe(200);
  subId = ((await json(res)).href as string).split('/').pop()!;
  // n % 3 = 0: always 500 (fails after its retry); 1: 200 with a JSON answer (a long one for n = 4);
  // 2: 503 first, then 200.
  const seen = new Map<number, number>();
  rx.on(target, (req) => {
    const n = (req.body as { data: { n: number } }).data.n;
    const times = (seen.get(n) ?? 0) + 1;
    seen.set(n, times);
    if (n % 3 === 0) return { status: 500, headers: { 'content-type': 'text/plain' }, body: `broken ${n}` };
    if (n % 3 === 2 && times === 1) return 503;
    return {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(n === 4 ? { n, big: BIG } : { n, ok: true }),
    };
  });
  for (let n = 1; n <= 6; n++)
    await stack.publish('cdr.created', {
      id: randomName(`evt${n}`),
      accountId: alice.id,
      resource: 'call',
      timestamp: '2026-03-01T10:00:00.000Z',
      data: { n },
    });
  // Every delivery ended: 1, 4 once; 2, 5 twice (retrying, succeeded); 3, 6 twice (retrying, failed).
  records = await waitFor(
    async () => {
      const all = await list();
      return all.length === 10 && all.filter((r) => r.outcome === 'retrying').length === 4 ? all : undefined;
    },
    { timeoutMs: 30_000, what: 'ten attempt records' },
  );
}, 90_000);

describe('GET /v1/webhooks/:id/stats', () => {
  it('when deliveries succeeded, were retried and failed, then the buckets and totals add up exactly to the records', async () => {
    const count = (outcome: string) => records.filter((r) => r.outcome === outcome).length;
    expect([count('succeeded'), count('retrying'), count('failed')]).toEqual([4, 4, 2]);
    for (const [window, bucket, n] of [
      ['1h', '1m', 60],
      ['24h', '5m', 288],
      ['7d', '1h', 168],
    ] as const) {
      const res = await stack.request(alice, 'GET', `/v1/webhooks/${subId}/stats?window=${window}&bucket=${bucket}`);
      expect(res.status).toBe(200);
      const stats = (await res.json()) as {
        window: string;
        bucket: string;
        buckets: Record<string, number | string | null>[];
        totals: Record<string, number | null>;
      };
      expect(stats).toMatchObject({ window, bucket });
      expect(stats.buckets).toHaveLength(n);
      const sum = (k: string) => stats.buckets.reduce((a, b) => a + Number(b[k]), 0);
      expect({
        attempts: sum('attempts'),
        succeeded: sum('succeeded'),
        retrying: sum('retrying'),
        failed: sum('failed'),
      }).toEqual({ attempts: 10, succeeded: 4, retrying: 4, failed: 2 });
      expect(stats.totals).toMatchObject({ attempts: 10, succeeded: 4, retrying: 4, failed: 2, cancelled: 0 });
      expect(stats.totals.p50Ms).toEqual(expect.any(Number));
      expect(stats.totals.p95Ms! >= stats.totals.p50Ms!).toBe(true);
      // Buckets are consecutive, the last one holding now; an empty one has no percentiles.
      const starts = stats.buckets.map((b) => Date.parse(b.start as string));
      expect(starts.at(-1)! <= Date.now() && Date.now() - starts.at(-1)! < 3_600_000).toBe(true);
      expect(starts[1]! - starts[0]!).toBe({ '1m': 60_000, '5m': 300_000, '1h': 3_600_000 }[bucket]);
      expect(stats.buckets.find((b) => b.attempts === 0)).toMatchObject({ p50Ms: null, p95Ms: null });
    }
  });

  it('when the window makes too many buckets or a value is unknown, then 400 names the parameter', async () => {
    for (const [query, field] of [
      ['window=7d&bucket=1m', 'bucket'],
      ['window=24h&bucket=1m', 'bucket'],
      ['window=2d', 'window'],
      ['bucket=10s', 'bucket'],
    ]) {
      const p = await problem(await stack.request(alice, 'GET', `/v1/webhooks/${subId}/stats?${query}`), 400);
      expect((p.errors as { field: string }[]).map((e) => e.field)).toContain(field);
    }
  });

  it("when another account asks for a subscription's statistics, then 404", async () => {
    await problem(await stack.request(bob, 'GET', `/v1/webhooks/${subId}/stats`), 404);
  });

  it("when an application's statistics are read, then they hold its session part, zero without sessions", async () => {
    const created = await stack.request(alice, 'POST', '/v1/applications', {
      name: 'stats',
      voiceUrl: 'https://example.com/voice',
    });
    const appId = ((await json(created)).href as string).split('/').pop()!;
    const res = await stack.request(alice, 'GET', `/v1/applications/${appId}/stats?window=1h&bucket=5m`);
    expect(res.status).toBe(200);
    const stats = (await res.json()) as { buckets: Rec[]; totals: Rec };
    expect(stats.buckets).toHaveLength(12);
    expect(stats.buckets[0]).toMatchObject({ attempts: 0, sessions: { answered: 0, fallback: 0, failed: 0 } });
    expect(stats.totals).toMatchObject({ attempts: 0, sessions: { answered: 0, fallback: 0, failed: 0 } });
    await problem(await stack.request(bob, 'GET', `/v1/applications/${appId}/stats`), 404);
  });
});

describe('delivery search', () => {
  it('when filtered by outcome, then only attempts with that outcome come back, newest first', async () => {
    const failed = await list('?outcome=failed');
    expect(failed).toHaveLength(2);
    expect(failed.every((r) => r.outcome === 'failed' && r.statusCode === 500)).toBe(true);
    expect(await list('?outcome=retrying')).toHaveLength(4);
    expect(await list('?outcome=cancelled')).toEqual([]);
    // Filters combine with paging.
    const res = await stack.request(alice, 'GET', `/v1/webhooks/${subId}/deliveries?outcome=succeeded&limit=3`);
    expect(((await res.json()) as Rec[]).length).toBe(3);
    expect(res.headers.get('link')).toMatch(/outcome=succeeded.*cursor=/);
  });

  it('when filtered by messageId, then every attempt of that message comes back, and only those', async () => {
    const failed = records.find((r) => r.outcome === 'failed')!;
    const attempts = await list(`?messageId=${encodeURIComponent(failed.messageId as string)}`);
    // In the order they were recorded: the two attempts' records may reach the store in either order.
    expect(attempts.map((r) => [r.attempt, r.outcome]).sort()).toEqual([
      [1, 'retrying'],
      [2, 'failed'],
    ]);
    // The webhook-id the receiver logged is the messageId.
    const logged = rx.at(target).filter((r) => r.headers['webhook-id'] === failed.messageId);
    expect(logged).toHaveLength(2);
  });

  it('when filtered by event and time, then the window and the name narrow the list', async () => {
    expect(await list('?event=cdrCreated')).toHaveLength(10);
    expect(await list('?event=smsdlr')).toEqual([]);
    const first = Math.min(...records.map((r) => Date.parse(r.createdAt as string)));
    expect(await list(`?since=${new Date(Date.now() + 60_000).toISOString()}`)).toEqual([]);
    expect(await list(`?until=${new Date(first).toISOString()}`)).toEqual([]);
    expect(
      await list(`?since=${new Date(first).toISOString()}&until=${new Date(Date.now() + 1000).toISOString()}`),
    ).toHaveLength(10);
  });

  it('when a filter value is invalid, then 400 problem+json names the parameter', async () => {
    for (const [query, field] of [
      ['outcome=lost', 'outcome'],
      ['since=yesterday', 'since'],
      ['until=2026-13-45T00:00:00Z', 'until'],
      [`messageId=${'x'.repeat(201)}`, 'messageId'],
    ]) {
      const p = await problem(await stack.request(alice, 'GET', `/v1/webhooks/${subId}/deliveries?${query}`), 400);
      expect((p.errors as { field: string }[]).map((e) => e.field)).toContain(field);
    }
  });
});

describe('GET /v1/deliveries/:id', () => {
  it("when a record is read, then it holds the receiver's answer: content type, excerpt, and whether it was cut", async () => {
    const read = async (r: Rec) => json(await stack.request(alice, 'GET', `/v1/deliveries/${r.id as string}`));
    const answered = records.filter((r) => r.outcome === 'succeeded');
    const bodies = await Promise.all(answered.map(read));
    const short = bodies.find((b) => (b.response as Rec | null)?.excerpt === JSON.stringify({ n: 1, ok: true }));
    expect(short).toMatchObject({
      outcome: 'succeeded',
      statusCode: 200,
      response: { contentType: 'application/json', truncated: false },
    });
    // 4: an answer of ~10 KB is cut to 4 KiB of whole UTF-8 characters.
    const long = bodies.find((b) => ((b.response as Rec | null)?.excerpt as string | undefined)?.startsWith('{"n":4'));
    const excerpt = (long!.response as Rec).excerpt as string;
    expect((long!.response as Rec).truncated).toBe(true);
    expect(Buffer.byteLength(excerpt)).toBeLessThanOrEqual(4096);
    expect(Buffer.byteLength(excerpt)).toBeGreaterThan(4090);
    expect(excerpt).not.toContain('\uFFFD');
    // A failure's answer too.
    const failed = await read(records.find((r) => r.outcome === 'failed')!);
    expect(failed.response).toMatchObject({ contentType: 'text/plain', excerpt: expect.stringMatching(/^broken \d$/) });
    // The scoped read answers the same record.
    const scoped = await json(
      await stack.request(alice, 'GET', `/v1/webhooks/${subId}/deliveries/${short!.id as string}`),
    );
    expect(scoped.response).toEqual(short!.response);
    expect(scoped.request).toEqual(short!.request);
  });

  it('when a record is read, then it holds the body sent: the bytes the receiver got, on every attempt of the message', async () => {
    const read = async (r: Rec) => json(await stack.request(alice, 'GET', `/v1/deliveries/${r.id as string}`));
    for (const record of records) {
      const got = rx.received.filter((r) => r.path === target && r.headers['webhook-id'] === record.messageId);
      expect(got.length).toBeGreaterThan(0);
      const body = await read(record);
      expect(body.request).toEqual({ body: got[0]!.raw, bytes: got[0]!.bytes.length, truncated: false });
      // Every attempt of a message sends the same bytes.
      for (const g of got) expect(g.raw).toBe(got[0]!.raw);
    }
    // A list never carries the body nor the answer.
    for (const r of await list()) {
      expect(r).not.toHaveProperty('request');
      expect(r).not.toHaveProperty('response');
    }
  });

  it('when the body is no longer kept (past the retention), then the record reads with request null and its answer', async () => {
    const record = records.find((r) => r.outcome === 'failed')!;
    const before = await json(await stack.request(alice, 'GET', `/v1/deliveries/${record.id as string}`));
    expect(before.request).not.toBeNull();
    // The body is 40 days old (moved into that day's partition); the retention of 30 days drops the
    // day (the record's own day is not dropped here).
    await ensurePartitionFor(stack.webhooks.app.orm.em, 'webhooks', 'delivery_bodies', [
      new Date(Date.now() - 40 * 86_400_000),
    ]);
    await queryDatabase(
      stack.databaseUrl,
      `update webhooks.delivery_bodies set created_at = now() - interval '40 days' where message_id = $1`,
      [record.messageId],
    );
    await dropExpiredDeliveries(stack.webhooks.app.orm, 'webhooks', 30);
    for (const r of records.filter((x) => x.messageId === record.messageId)) {
      const after = await json(await stack.request(alice, 'GET', `/v1/deliveries/${r.id as string}`));
      expect(after).toMatchObject({ id: r.id, request: null, response: { contentType: 'text/plain' } });
    }
  });

  it("when another account's record or an unknown id is read, then 404", async () => {
    await problem(await stack.request(bob, 'GET', `/v1/deliveries/${records[0]!.id as string}`), 404);
    await problem(await stack.request(alice, 'GET', '/v1/deliveries/dlv_nothing'), 404);
  });
});
