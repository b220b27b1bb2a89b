import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { ADMIN_DATABASE_URL as ADMIN, randomName } from '../../../test/support/infra';
import { ensureDatabase } from './db';

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
