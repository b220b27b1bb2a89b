// One child process of the proof that can be started again after it ends: kill -9 (no drain, no
// goodbye) or SIGTERM with a grace period before SIGKILL.
import type { ChildProcess } from 'node:child_process';

export interface ManagedChild {
  readonly child: ChildProcess | undefined;
  alive(): boolean;
  /** Follows a newly spawned process (the previous one has ended); returns it. */
  track(c: ChildProcess): ChildProcess;
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

export function managedChild(graceMs: number): ManagedChild {
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  const alive = () => !!child && child.exitCode === null && child.signalCode === null;
  return {
    get child() {
      return child;
    },
    alive,
    track(c) {
      child = c;
      exited = new Promise<void>((r) => c.once('exit', () => r()));
      return c;
    },
    async kill9() {
      if (!alive()) return;
      child!.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (!alive()) return;
      child!.kill('SIGTERM');
      const t = setTimeout(() => child?.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(t);
    },
  };
}
