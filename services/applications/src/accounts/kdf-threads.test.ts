import { readdirSync, readFileSync } from 'node:fs';
import { scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
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
});
