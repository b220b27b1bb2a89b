import { readdirSync, readFileSync } from 'node:fs';
import { scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AppError } from '@switchboard/errors';
import { KdfThreads } from './kdf-threads';

const job = (password: string) => ({
  password,
  salt: Buffer.from('0123456789abcdef'),
  keylen: 32,
  N: 2 ** 12,
  r: 8,
  p: 1,
});

/** Nice values of this process's threads (Linux /proc), by thread id. */
function niceOfThreads(): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    // Field 19 of stat is the nice value; the command name (field 2) may hold spaces, so split after ')'.
    let stat: string;
    try {
      stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // a thread that ended between the listing and the read
    }
    const fields = stat.split(') ')[1]!.split(' ');
    out.set(Number(tid), Number(fields[16]));
  }
  return out;
}

describe('KdfThreads', () => {
  it('when hashes are asked for, then they equal scrypt computed in place, and at most `size` run at a time', async () => {
    const threads = new KdfThreads(1);
    const keys = await Promise.all(['a', 'b', 'c'].map((p) => threads.run(job(p))));
    for (const [i, k] of keys.entries())
      expect(k.equals(scryptSync(['a', 'b', 'c'][i]!, job('').salt, 32, { N: 2 ** 12, r: 8, p: 1 }))).toBe(true);
    const pending = [threads.run(job('d')), threads.run(job('e'))];
    expect(threads.load).toEqual({ running: 1, waiting: 1 });
    await Promise.all(pending);
    threads.close();
  });

  it('when a priority job arrives behind others waiting, then it is computed before them', async () => {
    const threads = new KdfThreads(1);
    const order: string[] = [];
    const run = (name: string, priority = false) => threads.run(job(name), priority).then(() => order.push(name));
    const all = [run('busy'), run('w1'), run('w2'), run('owner', true)];
    await Promise.all(all);
    expect(order).toEqual(['busy', 'owner', 'w1', 'w2']);
    threads.close();
  });

  it.runIf(process.platform === 'linux')(
    "when a nice value is set, then the KDF thread runs at that lower CPU priority and the process's own threads do not",
    async () => {
      const before = niceOfThreads();
      const threads = new KdfThreads(1, 12);
      await threads.run(job('x'));
      const added = [...niceOfThreads()].filter(([tid]) => !before.has(tid));
      expect(added.some(([, nice]) => nice === 12)).toBe(true);
      expect(niceOfThreads().get(process.pid)).toBe(before.get(process.pid));
      threads.close();
    },
  );

  it('when the queue is full, then a further job is refused at once as unavailable with a retry in 1 s, while a priority job still waits its turn', async () => {
    const threads = new KdfThreads(1, 0, 2);
    const held = [threads.run(job('busy')), threads.run(job('w1')), threads.run(job('w2'))];
    const refused = await threads.run(job('w3')).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'unavailable', retryAfterS: 1 });
    expect(threads.load).toEqual({ running: 1, waiting: 2 });
    const owner = threads.run(job('owner'), true);
    expect(threads.load.waiting).toBe(3);
    await Promise.all([...held, owner]);
    // Drained, the queue takes jobs again.
    await threads.run(job('later'));
    threads.close();
  });

  it("when a waiting job's caller goes, then it leaves the queue unhashed and the jobs behind it move up", async () => {
    const threads = new KdfThreads(1, 0, 8);
    const gone = new AbortController();
    const busy = threads.run(job('busy'));
    const abandoned = threads.run(job('abandoned'), false, gone.signal).catch((e: unknown) => e);
    const kept = threads.run(job('kept'));
    expect(threads.load).toEqual({ running: 1, waiting: 2 });
    gone.abort(new Error('caller gone'));
    expect(threads.load).toEqual({ running: 1, waiting: 1 });
    expect(((await abandoned) as Error).message).toBe('caller gone');
    await Promise.all([busy, kept]);
    expect(threads.dropped).toBe(1);
    // A signal that aborts after its job started changes nothing: the hash is delivered.
    const late = new AbortController();
    const running = threads.run(job('running'), false, late.signal);
    late.abort();
    expect((await running).length).toBe(32);
    expect(threads.dropped).toBe(1);
    threads.close();
  });
});
