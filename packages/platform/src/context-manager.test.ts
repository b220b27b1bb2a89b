// The context manager that is on only while work runs in a context: that work keeps its context
// across its awaits and timers, whatever else starts or ends meanwhile, and the storage is off
// once none runs.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createContextKey, ROOT_CONTEXT } from '@opentelemetry/api';
import { OnDemandContextManager, storageUsesAsyncHooks } from './context-manager';

const KEY = createContextKey('test');
const contextOf = (name: string) => ROOT_CONTEXT.setValue(KEY, name);
const nameIn = (m: OnDemandContextManager) => m.active().getValue(KEY);

describe('OnDemandContextManager', () => {
  it('when async work runs in a context, then it keeps it across awaits until it settles, and the storage is off after', async () => {
    const m = new OnDemandContextManager();
    expect(m.inUse).toBe(false);
    const seen: unknown[] = [];
    const result = await m.with(contextOf('a'), async () => {
      seen.push(nameIn(m));
      await sleep(5);
      seen.push(nameIn(m));
      await Promise.resolve();
      seen.push(nameIn(m));
      return 42;
    });
    expect(result).toBe(42);
    expect(seen).toEqual(['a', 'a', 'a']);
    expect(m.inUse).toBe(false);
    expect(m.active()).toBe(ROOT_CONTEXT);
  });

  it('when one piece of work ends while another still runs, then the other keeps its context, and work started outside has none', async () => {
    const m = new OnDemandContextManager();
    let finishFirst!: () => void;
    const first = m.with(contextOf('first'), () => new Promise<void>((r) => (finishFirst = r)));
    const secondSeen: unknown[] = [];
    const second = m.with(contextOf('second'), async () => {
      await sleep(5);
      secondSeen.push(nameIn(m));
      finishFirst();
      await first;
      await sleep(5);
      secondSeen.push(nameIn(m));
    });
    const outside = (async () => {
      await sleep(1);
      return nameIn(m);
    })();
    await second;
    expect(secondSeen).toEqual(['second', 'second']);
    expect(await outside).toBeUndefined();
    expect(m.inUse).toBe(false);
  });

  it('when work answers through a callback after its function returned, then a hold keeps its context until released', async () => {
    const m = new OnDemandContextManager();
    const release = m.hold();
    const seen = await new Promise<unknown>((resolve) =>
      m.with(contextOf('call'), () => {
        setTimeout(() => {
          resolve(nameIn(m));
          release();
        }, 5);
      }),
    );
    expect(seen).toBe('call');
    expect(m.inUse).toBe(false);
    // Released twice, it counts once.
    release();
    const again = m.hold();
    expect(m.inUse).toBe(true);
    again();
    expect(m.inUse).toBe(false);
  });

  it('when a function run in a context throws or rejects, then the error reaches the caller and the storage is off after', async () => {
    const m = new OnDemandContextManager();
    expect(() =>
      m.with(contextOf('x'), () => {
        throw new Error('sync');
      }),
    ).toThrow('sync');
    await expect(m.with(contextOf('y'), async () => Promise.reject(new Error('async')))).rejects.toThrow('async');
    expect(m.inUse).toBe(false);
  });

  it('when a function bound to a context is called later, then it runs in that context', async () => {
    const m = new OnDemandContextManager();
    const bound = m.bind(contextOf('bound'), () => nameIn(m));
    await sleep(1);
    expect(bound()).toBe('bound');
    expect(m.inUse).toBe(false);
  });
});

describe('storageUsesAsyncHooks', () => {
  it('when Node builds AsyncLocalStorage on async hooks (before 24, unless told otherwise), then it says so', () => {
    expect(storageUsesAsyncHooks('20.20.0', [])).toBe(true);
    expect(storageUsesAsyncHooks('22.12.0', [])).toBe(true);
    expect(storageUsesAsyncHooks('22.12.0', ['--experimental-async-context-frame'])).toBe(false);
    expect(storageUsesAsyncHooks('24.11.1', [])).toBe(false);
    expect(storageUsesAsyncHooks('24.11.1', ['--no-async-context-frame'])).toBe(true);
  });
});
