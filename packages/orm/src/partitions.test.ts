// Daily partitions against a real Postgres: created ahead without gaps or duplicates, rows land in
// their day, and retention drops whole days (and only those that end by the cutoff).
import { EntitySchema } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createLogger } from '@switchboard/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/infra';
import { initOrm, migrate, SchemaMigration } from './index';
import { dailyPartitionName, dropPartitionsBefore, ensureDailyPartitions } from './partitions';
import { sql } from './sql';

class Migration001Events extends SchemaMigration {
  override up(): void {
    this.useSchema();
    this.addSql(
      'create table events (id bigserial, at timestamptz not null, primary key (id, at)) partition by range (at)',
    );
  }
}

const EventSchema = new EntitySchema<{ id: number; at: Date }>({
  name: 'Event',
  tableName: 'events',
  properties: { id: { type: 'integer', primary: true }, at: { type: 'Date', primary: true } },
});

const DAY = 86_400_000;
const logger = createLogger('test', 'silent');
let db: TestDatabase;
let orm: MikroORM;

async function partitions(): Promise<string[]> {
  const rows = await sql<{ name: string }>(
    orm.em.fork(),
    `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
     where i.inhparent = 'parts.events'::regclass order by 1`,
  );
  return rows.map((r) => r.name);
}

beforeAll(async () => {
  db = await createTestDatabase();
  orm = await initOrm({
    entities: [EventSchema],
    migrations: [{ name: 'Migration001Events', class: Migration001Events }],
    databaseUrl: db.url,
    schema: 'parts',
    poolMax: 3,
    logger,
  });
  await migrate(orm, 'parts', logger);
});
afterAll(async () => {
  await orm?.close(true);
  await db?.drop();
});

describe('daily partitions', () => {
  it('when partitions are ensured from three days ago two days ahead, then each of those six days has one, even when asked twice at once', async () => {
    const today = Math.floor(Date.now() / DAY) * DAY;
    const from = new Date(today - 3 * DAY + 5 * 3600_000);
    await Promise.all([
      ensureDailyPartitions(orm.em.fork(), 'parts', 'events', from, 2),
      ensureDailyPartitions(orm.em.fork(), 'parts', 'events', from, 2),
    ]);
    const expected = [-3, -2, -1, 0, 1, 2].map((d) => dailyPartitionName('events', today + d * DAY));
    expect(await partitions()).toEqual(expected);

    // Rows land in the partition of their UTC day, the last instant of a day included.
    await sql(orm.em.fork(), 'insert into parts.events (at) values ($1), ($2), ($3)', [
      new Date(today - 3 * DAY),
      new Date(today - 2 * DAY - 1),
      new Date(today + 2 * DAY + 3600_000),
    ]);
    const placed = await sql<{ name: string; n: number }>(
      orm.em.fork(),
      `select tableoid::regclass::text as name, count(*)::int as n from parts.events group by 1 order by 1`,
    );
    expect(placed).toEqual([
      { name: `parts.${dailyPartitionName('events', today - 3 * DAY)}`, n: 2 },
      { name: `parts.${dailyPartitionName('events', today + 2 * DAY)}`, n: 1 },
    ]);
  });

  it('when partitions before a cutoff are dropped, then only whole days ending by it go, with their rows, and the others stay', async () => {
    const today = Math.floor(Date.now() / DAY) * DAY;
    // The cutoff falls inside the day two days ago: that day does not end by it and stays.
    const dropped = await dropPartitionsBefore(orm.em.fork(), 'parts', 'events', new Date(today - 2 * DAY + 3600_000));
    expect(dropped).toEqual([dailyPartitionName('events', today - 3 * DAY)]);
    expect(await partitions()).toEqual([-2, -1, 0, 1, 2].map((d) => dailyPartitionName('events', today + d * DAY)));
    expect(await sql(orm.em.fork(), 'select count(*)::int as n from parts.events')).toEqual([{ n: 1 }]);
    // Nothing more to drop: a second pass drops nothing.
    expect(await dropPartitionsBefore(orm.em.fork(), 'parts', 'events', new Date(today - 2 * DAY))).toEqual([]);
    // A cutoff at midnight drops the day that ends then.
    expect(await dropPartitionsBefore(orm.em.fork(), 'parts', 'events', new Date(today - DAY))).toEqual([
      dailyPartitionName('events', today - 2 * DAY),
    ]);
  });
});
