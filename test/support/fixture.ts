// The lifecycle shared by the fixtures of a file or describe block (stacks, databases, clusters).
import { afterAll, beforeAll } from 'vitest';

/**
 * The lifecycle the fixtures of a file or describe block share: `start` before the block's tests,
 * `stop` after them (when it started); `onReady` receives what started (e.g. `(d) => (db = d)`).
 */
export function useFixture<T>(
  start: () => Promise<T>,
  stop: (fixture: T) => Promise<unknown>,
  onReady: (fixture: T) => void,
  startTimeoutMs?: number,
): void {
  let fixture: T | undefined;
  beforeAll(async () => {
    fixture = await start();
    onReady(fixture);
  }, startTimeoutMs);
  afterAll(async () => {
    if (fixture !== undefined) await stop(fixture);
  });
}
