import { describe, expect, it } from 'vitest';
import { orlandoNumber, useTestDatabase, queryDatabase, runNpmScript, type TestDatabase } from '../../../test/support';

let db: TestDatabase;

useTestDatabase((d) => (db = d));

const numbers = (...args: string[]) => runNpmScript('numbers', args, { DATABASE_URL: db.url, LOG_LEVEL: 'warn' });

const lines = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

const sql = <R>(text: string, values: unknown[] = []) => queryDatabase<R>(db.url, text, values);

describe('npm run numbers', () => {
  it('when adding a range and single numbers, then they are listed as JSON lines with their exchange, and adding again adds nothing', async () => {
    const added = await numbers(
      'add',
      '+14075550100..+14075550149',
      '+442079460000',
      '--city',
      'Orlando',
      '--state',
      'FL',
      '--country',
      'us',
      '--sms',
    );
    expect(added.code).toBe(0);
    expect(lines(added.stdout)).toEqual([{ added: 51, alreadyPresent: 0 }]);

    const again = await numbers('add', '+14075550100..+14075550101');
    expect(lines(again.stdout)).toEqual([{ added: 0, alreadyPresent: 2 }]);

    const list = lines((await numbers('list')).stdout);
    expect(list).toHaveLength(51);
    expect(list[0]).toEqual({
      ...orlandoNumber(),
      applicationId: null,
    });
    expect(list.at(-1)).toMatchObject({ number: '+442079460000', displayNumber: '+442079460000', prefix: '4420' });
  }, 240_000);

  it('when an argument is malformed or a range too long, then nothing is added and it says why', async () => {
    // Every rule of numbers and ranges is unit-tested in src/numbers/e164.test.ts; here, that the command stops.
    for (const [arg, why] of [
      ['14075550100', /E\.164/],
      ['+14070000000..+14079999999', /at most 100000/],
    ] as const) {
      const r = await numbers('add', '+14075550999', arg);
      expect(r.code, arg).toBe(1);
      expect(r.stderr, arg).toMatch(why);
    }
    expect(await sql(`select 1 from applications.numbers where number = '+14075550999'`)).toEqual([]);
  }, 240_000);

  it('when removing, then a free number goes, a claimed one is refused unless --force releases it, and an unknown one is an error', async () => {
    expect(lines((await numbers('remove', '+14075550149')).stdout)).toEqual([{ removed: '+14075550149' }]);
    expect((await numbers('remove', '+14075550149')).code).toBe(1);

    const [account] = await sql<{ id: string }>(
      `insert into applications.accounts (username, password_hash) values ('n', 'x') returning id::text`,
    );
    await sql(
      `insert into applications.applications (id, account_id, name, voice_url, environment_id, api_type) values ('aaaaaaaaaaaaaaaaaaaaaaaa', $1, 'a', 'https://example.com', 2, 'webapi')`,
      [account!.id],
    );
    await sql(
      `update applications.numbers set application_id = 'aaaaaaaaaaaaaaaaaaaaaaaa' where number = '+14075550148'`,
    );

    const refused = await numbers('remove', '+14075550148');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/claimed by application aaaaaaaaaaaaaaaaaaaaaaaa.*--force/);
    expect(await sql(`select 1 from applications.numbers where number = '+14075550148'`)).toHaveLength(1);

    expect(lines((await numbers('remove', '+14075550148', '--force')).stdout)).toEqual([{ removed: '+14075550148' }]);
    const events = await sql<{ payload: Record<string, unknown> }>(
      `select payload from applications.outbox where subject = 'addresses.changed'`,
    );
    expect(events.map((e) => e.payload)).toContainEqual({
      type: 'number',
      address: '+14075550148',
      applicationId: null,
      previousApplicationId: 'aaaaaaaaaaaaaaaaaaaaaaaa',
      accountId: account!.id,
    });
  }, 240_000);

  it('when the command or its arguments are missing, then it prints usage and exits 2', async () => {
    for (const args of [['frobnicate'], ['add', '+14075550100', '--bogus']]) {
      const r = await numbers(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/usage/);
    }
  }, 240_000);
});
