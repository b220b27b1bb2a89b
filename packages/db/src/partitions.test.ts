// Daily partitions against a real Postgres: created ahead without gaps or duplicates, rows land in
// their day, and retention drops whole days (and only those that end by the cutoff).
import { EntitySchema } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { describe, expect, it } from 'vitest';
import { useMigratedOrm } from '../../../test/support/orm';
import { SchemaMigration } from './index';
import { dropPartitionsBefore, ensurePartitionFor, ensurePartitions, partitionName } from './partitions';
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
let orm: MikroORM;

async function partitions(): Promise<string[]> {
  const rows = await sql<{ name: string }>(
    orm.em.fork(),
    `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
     where i.inhparent = 'parts.events'::regclass order by 1`,
  );
  return rows.map((r) => r.name);
}

useMigratedOrm(
  {
    entities: [EventSchema],
    migrations: [{ name: 'Migration001Events', class: Migration001Events }],
    schema: 'parts',
    poolMax: 3,
  },
  (f) => void (orm = f.orm),
);

describe('daily partitions', () => {
  it('when partitions are ensured from three days ago two days ahead, then each of those six days has one, even when asked twice at once', async () => {
    const today = Math.floor(Date.now() / DAY) * DAY;
    const from = new Date(today - 3 * DAY + 5 * 3600_000);
    await Promise.all([
      ensurePartitions(orm.em.fork(), 'parts', 'events', from, 2),
      ensurePartitions(orm.em.fork(), 'parts', 'events', from, 2),
    ]);
    const expected = [-3, -2, -1, 0, 1, 2].map((d) => partitionName('events', today + d * DAY));
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
      { name: `parts.${partitionName('events', today - 3 * DAY)}`, n: 2 },
      { name: `parts.${partitionName('events', today + 2 * DAY)}`, n: 1 },
    ]);
  });

  it('when partitions before a cutoff are dropped, then only whole days ending by it go, with their rows, and the others stay', async () => {
    const today = Math.floor(Date.now() / DAY) * DAY;
    // The cutoff falls inside the day two days ago: that day does not end by it and stays.
    const dropped = await dropPartitionsBefore(orm.em.fork(), 'parts', 'events', new Date(today - 2 * DAY + 3600_000));
    expect(dropped).toEqual([partitionName('events', today - 3 * DAY)]);
    expect(await partitions()).toEqual([-2, -1, 0, 1, 2].map((d) => partitionName('events', today + d * DAY)));
    expect(await sql(orm.em.fork(), 'select count(*)::int as n from parts.events')).toEqual([{ n: 1 }]);
    // Nothing more to drop: a second pass drops nothing.
    expect(await dropPartitionsBefore(orm.em.fork(), 'parts', 'events', new Date(today - 2 * DAY))).toEqual([]);
    // A cutoff at midnight drops the day that ends then.
    expect(await dropPartitionsBefore(orm.em.fork(), 'parts', 'events', new Date(today - DAY))).toEqual([
      partitionName('events', today - 2 * DAY),
    ]);
  });

  it('when a day lasts 10 s (RETENTION_DAY_MS), then partitions span 10 s, are dropped 10 s at a time, and a span already inside a longer partition is not made again', async () => {
    const SPAN = 10_000;
    const today = Math.floor(Date.now() / DAY) * DAY;
    // Today's whole-day partition (from the first test) holds no row: it is replaced by 10 s spans.
    const now = Math.floor(Date.now() / SPAN) * SPAN;
    await ensurePartitions(orm.em.fork(), 'parts', 'events', new Date(now - SPAN), 2, SPAN);
    expect(await partitions()).not.toContain(partitionName('events', today));
    expect(await partitions()).toEqual(
      expect.arrayContaining([
        partitionName('events', now - SPAN, SPAN),
        partitionName('events', now + 2 * SPAN, SPAN),
      ]),
    );
    // The day two days ahead holds a row (first test): it stays, and spans inside it are not made.
    await ensurePartitionFor(orm.em.fork(), 'parts', 'events', [new Date(today + 2 * DAY + 5_000)], { spanMs: SPAN });
    expect(await partitions()).toContain(partitionName('events', today + 2 * DAY));
    expect(await partitions()).not.toContain(partitionName('events', today + 2 * DAY, SPAN));
    // Three days ahead has no partition yet: its spans are made 10 s long, named by their start.
    const ahead = today + 3 * DAY;
    await ensurePartitionFor(orm.em.fork(), 'parts', 'events', [new Date(ahead + 5_000), new Date(ahead + 25_000)], {
      spanMs: SPAN,
    });
    expect(await partitions()).toEqual(
      expect.arrayContaining([partitionName('events', ahead, SPAN), partitionName('events', ahead + 20_000, SPAN)]),
    );
    expect(partitionName('events', ahead + 20_000, SPAN)).toMatch(/^events_p\d{8}000020$/);
    await sql(orm.em.fork(), 'insert into parts.events (at) values ($1), ($2)', [
      new Date(ahead + 5_000),
      new Date(ahead + 25_000),
    ]);
    // A day-long span over them is only made for its uncovered parts: no overlap error, every instant placed.
    await ensurePartitions(orm.em.fork(), 'parts', 'events', new Date(ahead), 3, DAY);
    await sql(orm.em.fork(), 'insert into parts.events (at) values ($1), ($2)', [
      new Date(ahead + 15_000),
      new Date(ahead + DAY - 1),
    ]);
    // The first 10 s span ends by a cutoff at ahead + 10 s: it alone is dropped, with its row.
    const count = async () =>
      (
        await sql<{ n: number }>(orm.em.fork(), 'select count(*)::int as n from parts.events where at >= $1', [
          new Date(ahead),
        ])
      )[0]?.n;
    expect(await count()).toBe(4);
    const dropped = await dropPartitionsBefore(orm.em.fork(), 'parts', 'events', new Date(ahead + 10_000));
    expect(dropped).toContain(partitionName('events', ahead, SPAN));
    expect(dropped).not.toContain(partitionName('events', ahead + 20_000, SPAN));
    expect(await count()).toBe(3);
  });
});
