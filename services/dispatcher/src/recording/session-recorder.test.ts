import { describe, expect, it } from 'vitest';
import { createLogger } from '@switchboard/observability';
import { SESSION_RECORDS_SUBJECT, type SessionRecord } from '@switchboard/contracts';
import { SessionRecorder } from './session-recorder';

const logger = createLogger('dispatcher', 'silent');
const record = { id: 's1' } as SessionRecord;

/** A publisher that refuses the first `failures` publishes. */
function publisher(failures: number) {
  const calls: { subject: string; msgID: string | undefined }[] = [];
  return {
    calls,
    async publish(subject: string, _data: unknown, opts?: { msgID?: string }) {
      calls.push({ subject, msgID: opts?.msgID });
      if (calls.length <= failures) throw new Error('no responders');
      return {} as never;
    },
  };
}

describe('session recorder', () => {
  it('when JetStream refuses the record at first, then it is published again until stored, under the session id', async () => {
    const js = publisher(2);
    const pending: number[] = [];
    await new SessionRecorder(js, { logger, onPending: (n) => pending.push(n) }).record(record);
    expect(js.calls).toEqual(Array(3).fill({ subject: SESSION_RECORDS_SUBJECT, msgID: 'session-record:s1' }));
    expect(pending).toEqual([1, 0]);
  });

  it('when the session gives up (its outcome was not published), then the record stops being retried', async () => {
    const js = publisher(Number.POSITIVE_INFINITY);
    const stop = new AbortController();
    const recording = new SessionRecorder(js, { logger }).record(record, stop.signal);
    stop.abort();
    await expect(recording).rejects.toThrow('no responders');
    expect(js.calls.length).toBeLessThanOrEqual(2);
  });
});
