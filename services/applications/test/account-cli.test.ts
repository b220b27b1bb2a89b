import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { useTestDatabase, queryDatabase, REPO_ROOT, runNpmScript, type TestDatabase } from '../../../test/support';
import { verifyPassword } from '../src/accounts/password';

const root = REPO_ROOT;
let db: TestDatabase;

useTestDatabase((d) => (db = d));

const account = (...args: string[]) => runNpmScript('account', args, { DATABASE_URL: db.url, LOG_LEVEL: 'warn' });

/** Runs the command with `input` on stdin (a pipe); or, with `tty`, inside a pseudo-terminal that types each line after a prompt. */
function accountWith(
  args: string[],
  opts: { input?: string; env?: Record<string, string>; tty?: string[] },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = { ...process.env, DATABASE_URL: db.url, LOG_LEVEL: 'warn', ...opts.env };
  const cmd = ['npm', 'run', '--silent', 'account', '--', ...args];
  const child = opts.tty
    ? spawn('script', ['-qefc', cmd.map((a) => `'${a}'`).join(' '), '/dev/null'], { cwd: root, env })
    : spawn(cmd[0]!, cmd.slice(1), { cwd: root, env });
  const out = { stdout: '', stderr: '' };
  const lines = [...(opts.tty ?? [])];
  let prompts = 0;
  child.stdout.on('data', (d: Buffer) => {
    out.stdout += d.toString();
    // Type the next line only once its prompt shows, so the terminal is in no-echo mode by then.
    const seen = (out.stdout.match(/assword: /g) ?? []).length;
    while (prompts < seen && lines.length > 0) {
      prompts++;
      child.stdin.write(`${lines.shift()}\r`);
    }
  });
  child.stderr.on('data', (d: Buffer) => (out.stderr += d.toString()));
  if (!opts.tty) child.stdin.end(opts.input ?? '');
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      child.stdin.destroy();
      resolve({ code, ...out });
    }),
  );
}

async function hashOf(username: string): Promise<string | undefined> {
  const rows = await queryDatabase<{ password_hash: string }>(
    db.url,
    'SELECT password_hash FROM applications.accounts WHERE username = $1',
    [username],
  );
  return rows[0]?.password_hash;
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
  }, 180_000);

  it('when the command is unknown, then it prints usage and exits non-zero', async () => {
    const r = await account('frobnicate');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/usage/);
  });
});

describe('npm run account create: where the password comes from', () => {
  it('when --password-stdin is given, then the password is read from stdin (one trailing newline dropped)', async () => {
    const r = await accountWith(['create', '--username', 'from-stdin', '--password-stdin'], {
      input: 'stdin-password-1\n',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.trim())).toMatchObject({ username: 'from-stdin' });
    expect(await verifyPassword('stdin-password-1', (await hashOf('from-stdin'))!)).toBe(true);
  }, 180_000);

  it('when SWITCHBOARD_PASSWORD is set and no flag is given, then it is the password', async () => {
    const r = await accountWith(['create', '--username', 'from-env'], {
      env: { SWITCHBOARD_PASSWORD: 'env-password-1' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(await verifyPassword('env-password-1', (await hashOf('from-env'))!)).toBe(true);
  }, 180_000);

  it('when stdin is a terminal and no password is given, then it is asked for twice without echo', async () => {
    const r = await accountWith(['create', '--username', 'from-tty'], {
      tty: ['typed-password-1', 'typed-password-1'],
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Password: /);
    expect(r.stdout).toMatch(/Repeat the password: /);
    expect(r.stdout).not.toMatch(/typed-password/);
    expect(r.stdout).toMatch(/"username":"from-tty"/);
    expect(await verifyPassword('typed-password-1', (await hashOf('from-tty'))!)).toBe(true);

    const mismatch = await accountWith(['create', '--username', 'tty-mismatch'], {
      tty: ['typed-password-1', 'typed-password-2'],
    });
    expect(mismatch.code).not.toBe(0);
    expect(mismatch.stdout).toMatch(/do not match/);
    expect(await hashOf('tty-mismatch')).toBeUndefined();
  }, 180_000);

  it('when no password is given and stdin is not a terminal, then it refuses and names the ways to give one', async () => {
    const env = { SWITCHBOARD_PASSWORD: '' };
    const r = await accountWith(['create', '--username', 'no-password'], { env });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/--password-stdin/);
    expect(r.stderr).toMatch(/SWITCHBOARD_PASSWORD/);
    const both = await accountWith(['create', '--username', 'both', '--password', 'x-password-1', '--password-stdin'], {
      input: 'y',
    });
    expect(both.code).not.toBe(0);
    expect(await hashOf('no-password')).toBeUndefined();
  }, 180_000);
});
