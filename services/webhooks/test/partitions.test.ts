import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@switchboard/observability';
import { queryDatabase } from '../../../test/support';
import { MIGRATIONS } from '../src/db/migrations';
import { dropExpiredDeliveries } from '../src/deliveries/partitions';
import { pruneDeliveries } from '../src/deliveries/repository';
import { startHarness, storeRecords, useWebhooksDatabase, type Harness } from './harness';

const DAY = 86_400_000;
const _logger = createLogger('test', 'silent');

async function partitionsOf(url: string): Promise<string[]> {
  const rows = await queryDatabase<{ name: string }>(
    url,
    `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
     where i.inhparent = 'webhooks.deliveries'::regclass order by 1`,
  );
  return rows.map((r) => r.name);
}
const dayName = (t: number) => `deliveries_p${new Date(t).toISOString().slice(0, 10).replaceAll('-', '')}`;

describe('the migration to partitions', () => {
  const db = useWebhooksDatabase();

  it('when records exist before it, then they move into their days with their ids and seqs, the rollups count them, and new records follow', async () => {
    const before = await db.open(MIGRATIONS.filter((m) => m.name < 'Migration014'));
    const now = Date.now();
    await queryDatabase(
      db.url,
      `insert into webhooks.subscriptions (id, account_id, event, resource, target_url) values ('sub_m', 1, 'cdrCreated', 'all', 'https://example.com')`,
    );
    await queryDatabase(
      db.url,
      `insert into webhooks.deliveries (id, message_id, kind, subscription_id, application_id, account_id, event, target_url, attempt, status_code, duration_ms, outcome, created_at)
       select 'dlv_' || n, 'msg_' || (n / 2), case when n % 4 = 0 then 'session' else 'notification' end,
         case when n % 4 = 0 then null else 'sub_m' end, case when n % 4 = 0 then 'app_m' end, 1, 'cdrCreated', 'https://example.com',
         1 + n % 2, 200, 30 * n, case when n % 3 = 0 then 'failed' else 'succeeded' end,
         to_timestamp($1::double precision / 1000) - make_interval(days => n)
       from generate_series(0, 11) as n`,
      [now],
    );
    const old = await queryDatabase<{ seq: string; id: string }>(
      db.url,
      'select seq::text, id from webhooks.deliveries order by seq',
    );
    await before.close(true);

    const _orm = await db.open();
    const moved = await queryDatabase<{ seq: string; id: string; part: string }>(
      db.url,
      'select seq::text, id, tableoid::regclass::text as part from webhooks.deliveries order by seq',
    );
    expect(moved.map(({ seq, id }) => ({ seq, id }))).toEqual(old);
    // Each record sits in its UTC day's partition; every day from the oldest to two days ahead has one.
    const created = await queryDatabase<{ id: string; created_at: Date }>(
      db.url,
      'select id, created_at from webhooks.deliveries',
    );
    for (const r of moved)
      expect(r.part).toBe(`webhooks.${dayName(created.find((c) => c.id === r.id)!.created_at.getTime())}`);
    const days = await partitionsOf(db.url);
    expect(days[0]).toBe(dayName(now - 11 * DAY));
    expect(days.at(-1)).toBe(dayName(now + 2 * DAY));
    expect(days).toHaveLength(14);
    // The rollups hold exactly the records, per target and outcome.
    const [sums] = await queryDatabase<Record<string, number>>(
      db.url,
      `select (select count(*)::int from webhooks.deliveries) as records, sum(attempts)::int as attempts,
         sum(failed)::int as failed, (select count(*)::int from webhooks.deliveries where outcome = 'failed') as failed_records
       from webhooks.delivery_rollups where width = 60`,
    );
    expect(sums).toEqual({ records: 12, attempts: 12, failed: 4, failed_records: 4 });
    // A new record takes the next seq.
    await queryDatabase(
      db.url,
      `insert into webhooks.deliveries (id, message_id, kind, subscription_id, event, target_url, attempt, duration_ms, outcome)
       values ('dlv_new', 'msg_new', 'notification', 'sub_m', 'cdrCreated', 'https://example.com', 1, 5, 'succeeded')`,
    );
    const [next] = await queryDatabase<{ seq: string }>(
      db.url,
      `select seq::text from webhooks.deliveries where id = 'dlv_new'`,
    );
    expect(BigInt(next!.seq)).toBeGreaterThan(BigInt(old.at(-1)!.seq));
  });
});

describe('partitions in service', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.stop());

  const attempt = (subscriptionId: string, createdAt: number, n: number, outcome = 'succeeded') => ({
    messageId: `msg_${n}`,
    kind: 'notification',
    subscriptionId,
    event: 'cdrCreated',
    targetUrl: 'https://example.com/hook',
    attempt: 1,
    statusCode: outcome === 'succeeded' ? 200 : 500,
    durationMs: 40,
    outcome,
    createdAt: new Date(createdAt).toISOString(),
  });

  it('when late records arrive, a batch is stored twice, attempts are made again after a crash, and retention passes, then days are made and dropped whole and the statistics follow the records', async () => {
    const accountId = await h.newAccount();
    const { subscription } = await h.webhooks.client.createSubscription({
      accountId,
      applicationId: '',
      event: 'cdrCreated',
      resource: 'all',
      targetUrl: 'https://example.com/hook',
    });
    const sub = subscription!.id;
    const now = Date.now();
    const batch = {
      attempts: [
        attempt(sub, now - 40 * DAY, 1),
        attempt(sub, now - 2 * DAY, 2, 'failed'),
        attempt(sub, now - 1000, 3),
        attempt(sub, now - 500, 4, 'failed'),
      ],
    };
    await storeRecords(h, batch);
    // The same batch again (a redelivered message): nothing more is stored or counted.
    // The attempts made again after a crash (the job redelivered): the same message, target and
    // attempt number at a later time, a day boundary apart or not; the records stored first stay.
    await storeRecords(h, {
      attempts: [attempt(sub, now - 2 * DAY + 30_000, 2, 'failed'), attempt(sub, now - 400, 4, 'failed')],
    });
    expect(await partitionsOf(h.databaseUrl)).toContain(dayName(now - 40 * DAY));
    const count = async () =>
      (
        await queryDatabase<{ records: number; attempts: number; hourly: number }>(
          h.databaseUrl,
          `select (select count(*)::int from webhooks.deliveries where subscription_id = $1) as records,
             (select coalesce(sum(attempts), 0)::int from webhooks.delivery_rollups where target = $1 and width = 60) as attempts,
             (select coalesce(sum(attempts), 0)::int from webhooks.delivery_rollups where target = $1 and width = 3600) as hourly`,
          [sub],
        )
      )[0]!;
    expect(await count()).toEqual({ records: 4, attempts: 4, hourly: 4 });
    const stats = async () =>
      (await h.webhooks.client.getDeliveryStats({ accountId, subscriptionId: sub, window: '7d', bucket: '1h' }))
        .totals!;
    expect(await stats()).toMatchObject({ attempts: '3', succeeded: '1', failed: '2' });

    // Retention of 30 days: the day 40 days ago goes whole, with its rollups; the others stay.
    const orm = h.webhooks.app.orm;
    const dropped = await dropExpiredDeliveries(orm, 'webhooks', 30);
    expect(dropped).toContain(dayName(now - 40 * DAY));
    await pruneDeliveries(orm.em.fork(), 'webhooks', 30);
    expect(await partitionsOf(h.databaseUrl)).not.toContain(dayName(now - 40 * DAY));
    expect(await count()).toEqual({ records: 3, attempts: 3, hourly: 3 });

    // Retention of 1 day: the day two days ago goes too; today's records and statistics stay.
    await dropExpiredDeliveries(orm, 'webhooks', 1);
    await pruneDeliveries(orm.em.fork(), 'webhooks', 1);
    expect(await count()).toEqual({ records: 2, attempts: 2, hourly: 2 });
    expect(await stats()).toMatchObject({ attempts: '2', succeeded: '1', failed: '1' });
    expect(await partitionsOf(h.databaseUrl)).toContain(dayName(now));

    // A late record of a day already dropped gets its partition again.
    await storeRecords(h, { attempts: [attempt(sub, now - 2 * DAY, 5)] });
    expect(await count()).toEqual({ records: 3, attempts: 3, hourly: 3 });

    // Today's partition dropped by another replica (this service still counts it as made): the
    // insert finds no partition, the day is made again and the batch stored.
    await queryDatabase(h.databaseUrl, `drop table webhooks.${dayName(now)}`);
    await storeRecords(h, { attempts: [attempt(sub, now, 6)] });
    expect(await partitionsOf(h.databaseUrl)).toContain(dayName(now));
    expect(
      (
        await queryDatabase<{ n: number }>(
          h.databaseUrl,
          `select count(*)::int as n from webhooks.deliveries where message_id = 'msg_6'`,
        )
      )[0]!.n,
    ).toBe(1);
  });
});
