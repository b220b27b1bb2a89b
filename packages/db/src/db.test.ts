import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_DATABASE_URL as ADMIN,
  createTestDatabase,
  randomName,
  type TestDatabase,
} from '../../../test/support/infra';
import { ensureDatabase, queryPrepared, transactionPrepared, type PooledClient } from './db';

let created: string | undefined;

afterEach(async () => {
  if (!created) return;
  const admin = new pg.Client({ connectionString: ADMIN });
  await admin.connect();
  await admin.query(`drop database if exists "${created}" with (force)`);
  await admin.end();
  created = undefined;
});

it('when several services start at once on a machine without the database, then every one of them gets it created', async () => {
  created = randomName('sb_ensure');
  const url = new URL(ADMIN);
  url.pathname = `/${created}`;
  // Four at once, as `npm start` does on a new machine: the losers of the race must not fail.
  await expect(Promise.all(Array.from({ length: 4 }, () => ensureDatabase(url.toString())))).resolves.toHaveLength(4);
  const probe = new pg.Client({ connectionString: url.toString() });
  await probe.connect();
  expect((await probe.query('select current_database() as name')).rows[0].name).toBe(created);
  await probe.end();
});

describe('transactionPrepared', () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  // The one connection of the pool, as the ORM's pool hands it out.
  const pooled: PooledClient = { connect: () => pool.connect() };

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 1 });
    // As the ORM's pool does: a connection that dies while checked out reports it on the client.
    pool.on('connect', (client) => client.on('error', () => undefined));
    // And one that dies while idle in the pool (the test kills its backend) reports it on the pool.
    pool.on('error', () => undefined);
    await pool.query('create table t (id int primary key)');
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  it('when the work succeeds, then its writes are committed', async () => {
    const answer = await transactionPrepared(pooled, 'begin; select pg_advisory_xact_lock(1)', (query) =>
      query('insert into t (id) values ($1) returning id', [1]),
    );
    expect(answer).toEqual([{ id: 1 }]);
    expect((await pool.query('select id from t')).rows).toEqual([{ id: 1 }]);
  });

  it('when a statement fails inside, then nothing of the transaction stays and the connection serves the next caller', async () => {
    await expect(
      transactionPrepared(pooled, 'begin', async (query) => {
        await query('insert into t (id) values ($1)', [2]);
        await query('insert into t (id) values ($1)', [1]); // duplicate key: the transaction is aborted
      }),
    ).rejects.toMatchObject({ code: '23505' });
    // Same (only) connection: without the rollback it would still be in the aborted transaction.
    expect(await queryPrepared(pooled, 'select id from t order by id', [])).toEqual([{ id: 1 }]);
  });

  it('when the connection dies inside the transaction, then the pool drops it and the next caller gets a working one', async () => {
    await expect(
      transactionPrepared(pooled, 'begin', async (query) => {
        await query('select pg_terminate_backend(pg_backend_pid())', []);
      }),
    ).rejects.toThrow();
    expect(await queryPrepared(pooled, 'select id from t order by id', [])).toEqual([{ id: 1 }]);
  });
});
