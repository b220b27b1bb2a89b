// The active trace context of a service, kept by an AsyncLocalStorage that is switched on only while
// some work runs in a context. Loaded by startTracing (tracing.ts) only when tracing is on.
//
// Before Node 24, AsyncLocalStorage is built on async hooks: once a storage has been entered, every
// promise and native async resource of the process calls back into JavaScript to carry the store
// on, for as long as the storage stays enabled, which with OpenTelemetry's own manager is for
// ever (the first sampled call, or the first export of spans, enters it). A service whose calls
// are mostly outside any trace (nine in ten at the default sampling: a trace the gateway's sampler
// turns down reaches no service) then pays that on every call. This manager counts the work that
// runs in a context (each `with` until what its function returns has settled, and what holds the
// context longer: a gRPC handler until it answers, a request until its response closes) and
// disables the storage whenever that count falls to zero; the next `with` enables it again.
// Promises made while it is off carry no context: they belong to no trace.
import { AsyncLocalStorage } from 'node:async_hooks';
import { ROOT_CONTEXT, type Context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';

/**
 * Whether this Node's AsyncLocalStorage is built on async hooks (Node 20 and 22, unless started with
 * --experimental-async-context-frame), where an enabled storage costs every promise of the process.
 * From Node 24 it is built on AsyncContextFrame, costs nothing while unused, and its disable() only
 * clears the store of the current frame (which other work may share): there the plain manager is used.
 */
export function storageUsesAsyncHooks(version = process.versions.node, flags: readonly string[] = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)]): boolean {
  const major = Number(version.split('.')[0]);
  if (major >= 24) return flags.includes('--no-async-context-frame');
  return !flags.includes('--experimental-async-context-frame');
}

/** The AsyncLocalStorage context manager, enabled only while some work runs in a context (see above). */
export class OnDemandContextManager extends AsyncLocalStorageContextManager {
  private readonly storage = new AsyncLocalStorage<Context>();
  /** Work running in a context now: `with` calls not yet settled and holds not yet released. */
  private entered = 0;

  override active(): Context {
    return this.storage.getStore() ?? ROOT_CONTEXT;
  }

  override with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(ctx: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    // Nothing to carry and nothing carried: no need to switch the storage on.
    if (ctx === ROOT_CONTEXT && this.entered === 0) return fn.apply(thisArg, args);
    this.entered++;
    let result: ReturnType<F>;
    try {
      result = this.storage.run(ctx, () => fn.apply(thisArg, args));
    } catch (err) {
      this.leave();
      throw err;
    }
    // Work that goes on after the call (an async function) keeps the storage on until it settles;
    // the promise handed back settles as it does, and rejects unhandled where it would have.
    if (result instanceof Promise) return result.finally(this.leave) as ReturnType<F>;
    this.leave();
    return result;
  }

  /**
   * Keeps the storage on until the returned function is called (once; later calls do nothing):
   * for work that goes on in its context after `with`'s function has returned, such as a gRPC
   * handler, which answers through a callback.
   */
  hold(): () => void {
    this.entered++;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.leave();
    };
  }

  /** Whether the storage is on (work runs in a context): for tests. */
  get inUse(): boolean {
    return this.entered > 0;
  }

  override attach(ctx: Context): ReturnType<AsyncLocalStorageContextManager['attach']> {
    const previous = this.active();
    const release = this.hold();
    this.storage.enterWith(ctx);
    let disposed = false;
    return {
      dispose: () => {
        if (disposed) return;
        disposed = true;
        this.storage.enterWith(previous);
        release();
      },
    };
  }

  override disable(): this {
    this.entered = 0;
    this.storage.disable();
    return this;
  }

  private readonly leave = (): void => {
    if (--this.entered === 0) this.storage.disable();
  };
}
