import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../..', import.meta.url));
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db?.drop());

async function account(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('npm', ['run', '--silent', 'account', '--', ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: db.url, LOG_LEVEL: 'warn' },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('npm run account', () => {
  it('when creating, listing and deleting, then it prints JSON, refuses duplicates and weak passwords, and deletes', async () => {
    const created = await account('create', '--username', 'cli-user', '--password', 'a-good-password');
    expect(created.code).toBe(0);
    const printed = JSON.parse(created.stdout.trim()) as { id: unknown; username: string };
    expect(printed).toEqual({ id: expect.any(Number), username: 'cli-user' });

    const again = await account('create', '--username', 'cli-user', '--password', 'another-password');
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/taken/);

    const weak = await account('create', '--username', 'weak', '--password', 'short');
    expect(weak.code).not.toBe(0);
    expect(weak.stderr).toMatch(/password/);

    const list = JSON.parse((await account('list')).stdout.trim()) as { id: number; username: string }[];
    expect(list.map((a) => a.username)).toEqual(['cli-user']);
    expect(JSON.stringify(list)).not.toMatch(/scrypt|hash|password/);

    expect((await account('delete', '--username', 'cli-user')).code).toBe(0);
    expect(JSON.parse((await account('list')).stdout.trim())).toEqual([]);
    expect((await account('delete', '--username', 'cli-user')).code).not.toBe(0);
  }, 60_000);

  it('when the command is unknown, then it prints usage and exits non-zero', async () => {
    const r = await account('frobnicate');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/usage/);
  });
});
