import { describe, expect, it } from 'vitest';
import type { AttemptResult } from '../http-sender';
import {
  attemptTimeoutMs,
  fallbackReserveMs,
  judgeSessionAttempt,
  MIN_ATTEMPT_MS,
  sessionRetryDelayMs,
} from './session';

const answered = (status: number, body?: string, tooLarge = false): AttemptResult => ({
  kind: 'response',
  status,
  durationMs: 12,
  retryAfter: undefined,
  location: undefined,
  ...(body !== undefined ? { answer: { contentType: 'application/json', body: Buffer.from(body), tooLarge } } : {}),
});
const failed = (fields: { timedOut?: boolean; refused?: boolean }): AttemptResult => ({
  kind: 'error',
  error: 'boom',
  code: 'X',
  durationMs: 3,
  timedOut: !!fields.timedOut,
  refused: !!fields.refused,
});

describe('judgeSessionAttempt', () => {
  it('when the application answers 2xx with JSON, then that is the instructions, with the content type', () => {
    expect(judgeSessionAttempt(answered(200, '{"tropo":[{"say":{"value":"hi"}}]}'))).toEqual({
      ok: true,
      status: 200,
      contentType: 'application/json',
      body: { tropo: [{ say: { value: 'hi' } }] },
    });
  });

  it.each([
    ['an empty body', answered(200, ''), 'empty_body'],
    ['no body read', answered(204), 'empty_body'],
    ['a body that is not JSON', answered(200, '<Response/>'), 'not_json'],
    ['a body over 64 KiB', answered(200, '{"a":1', true), 'too_large'],
    ['a 404', answered(404, '{}'), 'http_status'],
    ['a redirect', answered(302, ''), 'http_status'],
    ['a timeout', failed({ timedOut: true }), 'timeout'],
    ['a refused target', failed({ refused: true }), 'ssrf_refused'],
  ])('when the attempt gives %s, then it fails with a reason that is not retried', (_what, r, reason) => {
    expect(judgeSessionAttempt(r)).toMatchObject({ ok: false, reason, retryable: false });
  });

  it.each([
    ['a 5xx', answered(503, ''), 'http_5xx'],
    ['a connection error', failed({}), 'connection_error'],
  ])('when the attempt gives %s, then the same URL may be tried again', (_what, r, reason) => {
    expect(judgeSessionAttempt(r)).toMatchObject({ ok: false, reason, retryable: true });
  });
});

describe('the session budget', () => {
  const s = { deadlineMs: 10_000, timeoutMs: 5000 };

  it('when a fallback exists, then the primary leaves it one attempt, at most half the budget', () => {
    expect(fallbackReserveMs(s, true)).toBe(5000);
    expect(fallbackReserveMs({ deadlineMs: 4000, timeoutMs: 3000 }, true)).toBe(2000);
    expect(fallbackReserveMs(s, false)).toBe(0);
  });

  it('when time is short, then an attempt gets what is left, and none below the minimum unless it must be tried', () => {
    expect(attemptTimeoutMs(s, 10_000, 5000, false)).toBe(5000);
    expect(attemptTimeoutMs(s, 6000, 5000, false)).toBe(1000);
    expect(attemptTimeoutMs(s, 5100, 5000, false)).toBe(0);
    expect(attemptTimeoutMs(s, 50, 0, true)).toBe(MIN_ATTEMPT_MS);
  });

  it('when the same URL is tried again, then after about 0.5 s and then about 1.5 s', () => {
    expect(sessionRetryDelayMs(2, () => 0.5)).toBe(500);
    expect(sessionRetryDelayMs(3, () => 0.5)).toBe(1500);
    expect(sessionRetryDelayMs(2, () => 0)).toBe(375);
    expect(sessionRetryDelayMs(3, () => 1)).toBe(1875);
  });
});
