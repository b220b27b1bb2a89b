// The one raw-SQL helper against a real Postgres, on an ORM set up as the services set theirs up
// (initOrm, migrate): a statement joins the unit of work's transaction when there is one, and runs
// on the ORM's own pool otherwise, with `$1` bind parameters either way.
import { EntitySchema } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { describe, expect, it } from 'vitest';
import { useMigratedOrm } from '../../../test/support/orm';
import { SchemaMigration } from './index';
import { sql, sqlTransaction } from './sql';

interface Note {
  id: number;
  body: string;
}
const NoteSchema = new EntitySchema<Note>({
  name: 'Note',
  tableName: 'notes',
  properties: { id: { type: 'integer', primary: true }, body: { type: 'text' } },
});

class Migration001Notes extends SchemaMigration {
  override up(): void {
    this.useSchema();
    this.addSql('create table notes (id int primary key, body text not null)');
  }
}

let orm: MikroORM;

useMigratedOrm(
  {
    entities: [NoteSchema],
    migrations: [{ name: 'Migration001Notes', class: Migration001Notes }],
    schema: 'notes',
    poolMax: 2,
  },
  (f) => void (orm = f.orm),
);

describe('sql', () => {
  it('when the unit of work fails after a statement, then the statement is rolled back with the entity changes', async () => {
    await expect(
      orm.em.fork().transactional(async (em) => {
        em.persist(em.create(NoteSchema, { id: 1, body: 'entity' }));
        await em.flush();
        await sql(em, 'insert into notes.notes (id, body) values ($1, $2)', [2, 'raw']);
        // Inside the transaction the statement sees the flushed entity.
        expect(await sql(em, 'select id from notes.notes order by id')).toEqual([{ id: 1 }, { id: 2 }]);
        throw new Error('give up');
      }),
    ).rejects.toThrow('give up');
    expect(await sql(orm.em.fork(), 'select id from notes.notes')).toEqual([]);
  });

  it('when the unit of work commits, then the statement is committed with it, and array parameters reach Postgres as arrays', async () => {
    await orm.em.fork().transactional(async (em) => {
      em.persist(em.create(NoteSchema, { id: 3, body: 'entity' }));
      await sql(em, 'insert into notes.notes (id, body) select unnest($1::int[]), $2', [[4, 5], 'raw, "quoted"']);
    });
    const rows = await sql<{ id: number; body: string }>(
      orm.em.fork(),
      'select id, body from notes.notes where id = any($1::int[]) order by id',
      [[3, 4, 5]],
    );
    expect(rows).toEqual([
      { id: 3, body: 'entity' },
      { id: 4, body: 'raw, "quoted"' },
      { id: 5, body: 'raw, "quoted"' },
    ]);
  });

  it('when a transaction of prepared statements fails, then none of its statements stay', async () => {
    await expect(
      sqlTransaction(orm.em, 'begin', async (query) => {
        await query('insert into notes.notes (id, body) values ($1, $2)', [6, 'first']);
        await query('insert into notes.notes (id, body) values ($1, $2)', [3, 'duplicate']);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await sql(orm.em.fork(), 'select id from notes.notes where id = $1', [6])).toEqual([]);
  });
});
