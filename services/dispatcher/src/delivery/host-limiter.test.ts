import { describe, expect, it } from 'vitest';
import { HostLimiter, type Admission, type Gate, type Release } from './host-limiter';

const opts = { global: 4, perHost: 2, maxQueuePerHost: 3, maxQueued: 5, congestedAfterMs: 500 };

/** The release of an admission that got a slot (fails the test otherwise). */
async function slotOf(a: Admission): Promise<Release> {
  if (!('slot' in a)) throw new Error(`refused: ${a.refused.reason}`);
  const s = await a.slot;
  if (typeof s !== 'function') throw new Error(`turned away: ${s.reason}`);
  return s;
}

const refusedWith = (a: Admission) => ('refused' in a ? a.refused.reason : undefined);

describe('host limiter', () => {
  it('when a host is at its limit, then the next jobs wait in its queue and start in order of arrival as slots free', async () => {
    const l = new HostLimiter(opts);
    const a = await slotOf(l.acquire('a'));
    const b = await slotOf(l.acquire('a'));
    const order: number[] = [];
    const waits = [1, 2, 3].map((n) => slotOf(l.acquire('a')).then((r) => (order.push(n), r)));
    await Promise.resolve();
    expect(order).toEqual([]);
    expect(l.waiting).toBe(3);
    // another host is not held up
    const other = await slotOf(l.acquire('b'));
    a();
    b();
    const [r1, r2] = (await Promise.all(waits.slice(0, 2))) as [Release, Release];
    expect(order).toEqual([1, 2]);
    r1();
    const r3 = await waits[2]!;
    expect(order).toEqual([1, 2, 3]);
    r2();
    r3();
    other();
    expect(l.active).toBe(0);
    expect(l.waiting).toBe(0);
  });

  it('when the global limit is reached, then hosts take turns and a busy host does not hold up the others', async () => {
    const l = new HostLimiter({ ...opts, global: 2, perHost: 2 });
    const r1 = await slotOf(l.acquire('a'));
    const r2 = await slotOf(l.acquire('a'));
    const order: string[] = [];
    const pa = [
      slotOf(l.acquire('a')).then((r) => (order.push('a1'), r)),
      slotOf(l.acquire('a')).then((r) => (order.push('a2'), r)),
    ];
    const pb = slotOf(l.acquire('b')).then((r) => (order.push('b'), r));
    r1();
    const first = await Promise.race([...pa, pb]);
    r2();
    const second = await Promise.race([pa[1]!, pb]);
    // a queued first, but the freed slots alternate between the hosts
    expect(order).toEqual(['a1', 'b']);
    first();
    second();
    (await pa[1]!)();
  });

  it('when a host is congested by slow attempts, then new work and its waiting jobs are deferred at once', async () => {
    let t = 0;
    const l = new HostLimiter(opts, () => t);
    await slotOf(l.acquire('slow'));
    await slotOf(l.acquire('slow'));
    const waiting = l.acquire('slow');
    t = 600;
    expect(refusedWith(l.acquire('slow'))).toBe('host_busy');
    expect('slot' in waiting && (await waiting.slot)).toMatchObject({ reason: 'host_busy' });
    expect(typeof (await slotOf(l.acquire('fast')))).toBe('function');
  });

  it('when the host queue or the global queue is full, then the job is refused and counted nowhere', async () => {
    const l = new HostLimiter(opts);
    await slotOf(l.acquire('a'));
    await slotOf(l.acquire('a'));
    for (let i = 0; i < 3; i++) expect('slot' in l.acquire('a')).toBe(true);
    expect(refusedWith(l.acquire('a'))).toBe('queue_full');
    await slotOf(l.acquire('b'));
    await slotOf(l.acquire('b'));
    expect('slot' in l.acquire('b')).toBe(true);
    expect('slot' in l.acquire('b')).toBe(true);
    // 5 wait in all: the global cap
    expect(refusedWith(l.acquire('b'))).toBe('queue_full');
    expect(l.waiting).toBe(5);
  });

  it('when the breaker is open, then jobs are refused until its reset; half-open lets one probe through and the queue waits for its outcome', async () => {
    let gate: Gate = { state: 'open', waitMs: 5000 };
    const l = new HostLimiter(opts);
    const lg = new HostLimiter({ ...opts, gate: () => gate });
    expect(l.acquire('x')).toHaveProperty('slot');
    expect(lg.acquire('x')).toEqual({ refused: { reason: 'breaker_open', waitMs: 5000 } });
    gate = { state: 'half_open' };
    const probe = await slotOf(lg.acquire('x'));
    const queued = lg.acquire('x');
    expect(queued).toHaveProperty('slot');
    // the probe failed: the breaker is open again and the waiting job is turned away until the next reset
    gate = { state: 'open', waitMs: 3000 };
    probe();
    expect('slot' in queued && (await queued.slot)).toEqual({ reason: 'breaker_open', waitMs: 3000 });
    // the next probe succeeds: the queue goes at full speed
    gate = { state: 'half_open' };
    const probe2 = await slotOf(lg.acquire('x'));
    const q1 = lg.acquire('x');
    const q2 = lg.acquire('x');
    gate = { state: 'closed' };
    probe2();
    (await slotOf(q1))();
    (await slotOf(q2))();
    expect(lg.active).toBe(0);
  });

  it('when closed (shutdown), then waiting jobs and new ones are turned away', async () => {
    const l = new HostLimiter(opts);
    await slotOf(l.acquire('a'));
    await slotOf(l.acquire('a'));
    const w = l.acquire('a');
    l.close();
    expect('slot' in w && (await w.slot)).toMatchObject({ reason: 'shutdown' });
    expect(refusedWith(l.acquire('c'))).toBe('shutdown');
  });

  it('when attempts are held (the record buffer is full), then admitted jobs wait in their queues and start once resumed', async () => {
    let held = true;
    const l = new HostLimiter({ ...opts, held: () => held });
    const started: string[] = [];
    const waits = ['a', 'b'].map((host) => slotOf(l.acquire(host)).then((r) => (started.push(host), r)));
    await new Promise((r) => setTimeout(r, 10));
    expect(started).toEqual([]);
    expect(l.waiting).toBe(2);
    expect(l.active).toBe(0);
    held = false;
    l.resume();
    for (const r of await Promise.all(waits)) r();
    expect(started.sort()).toEqual(['a', 'b']);
    expect(l.waiting).toBe(0);
  });
});
