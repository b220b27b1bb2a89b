import { describe, expect, it } from 'vitest';
import type { AttemptResult } from './http-sender';
import { classifyAttempt, isHostFailure, type OutcomeContext } from './outcome';
import type { RetryPolicy } from './retry';

const now = Date.parse('2026-03-01T12:00:00.000Z');
const retry: RetryPolicy = { schedule: [1000, 60_000], jitter: 0, retryAfterMaxMs: 30_000 };
const ctx: OutcomeContext = { attempt: 1, subscriptionId: 'sub_1', retry, now, random: () => 0.5 };
const response = (status: number, extra: { retryAfter?: string; location?: string } = {}): AttemptResult => ({
  kind: 'response',
  status,
  durationMs: 42,
  retryAfter: extra.retryAfter,
  location: extra.location,
});
const failure = (error: string, refused = false): AttemptResult => ({
  kind: 'error',
  error,
  code: refused ? 'ESSRF' : 'ECONNREFUSED',
  durationMs: 7,
  timedOut: false,
  refused,
});

describe('classifyAttempt', () => {
  it('when the target answers 2xx, then the attempt succeeded and nothing follows', () => {
    for (const status of [200, 202, 204, 299]) {
      expect(classifyAttempt(response(status), ctx)).toEqual({
        outcome: 'succeeded',
        statusCode: status,
        durationMs: 42,
        error: undefined,
      });
    }
  });

  it('when the target answers 410 for a subscription, then the delivery fails and the subscription is disabled', () => {
    expect(classifyAttempt(response(410), ctx)).toEqual({
      outcome: 'failed',
      statusCode: 410,
      durationMs: 42,
      error: 'HTTP 410 Gone: subscription disabled',
      disable: { subscriptionId: 'sub_1', reason: 'target answered 410 Gone at 2026-03-01T12:00:00.000Z' },
    });
  });

  it('when the target answers 410 without a subscription (a session), then the delivery fails and nothing is disabled', () => {
    const o = classifyAttempt(response(410), { ...ctx, subscriptionId: null });
    expect(o).toEqual({
      outcome: 'failed',
      statusCode: 410,
      durationMs: 42,
      error: 'HTTP 410 Gone: the target asked to stop',
    });
    expect(o.disable).toBeUndefined();
  });

  it('when the target redirects, then the attempt is retried and the error names the location', () => {
    expect(classifyAttempt(response(302, { location: 'https://elsewhere.example/hook' }), ctx)).toEqual({
      outcome: 'retrying',
      statusCode: 302,
      durationMs: 42,
      error: 'HTTP 302: redirects are not followed (to https://elsewhere.example/hook)',
      retryInMs: 1000,
    });
    expect(classifyAttempt(response(301), ctx).error).toBe('HTTP 301: redirects are not followed');
    expect(
      classifyAttempt(response(307, { location: `https://x.example/${'a'.repeat(500)}` }), ctx).error,
    ).toHaveLength('HTTP 307: redirects are not followed (to )'.length + 200);
  });

  it('when the target answers 429 or 5xx with Retry-After, then a longer Retry-After wins over the schedule, capped', () => {
    expect(classifyAttempt(response(429, { retryAfter: '20' }), ctx)).toMatchObject({
      outcome: 'retrying',
      statusCode: 429,
      error: 'HTTP 429',
      retryInMs: 20_000,
    });
    expect(classifyAttempt(response(503, { retryAfter: '3600' }), ctx)).toMatchObject({
      outcome: 'retrying',
      statusCode: 503,
      error: 'HTTP 503',
      retryInMs: 30_000,
    });
    expect(classifyAttempt(response(503, { retryAfter: new Date(now + 10_000).toUTCString() }), ctx)).toMatchObject({
      retryInMs: 10_000,
    });
    // Shorter than the schedule, or unparseable: the schedule wins.
    expect(classifyAttempt(response(500, { retryAfter: '0' }), ctx)).toMatchObject({
      outcome: 'retrying',
      retryInMs: 1000,
    });
    expect(classifyAttempt(response(500, { retryAfter: 'soon' }), ctx)).toMatchObject({
      outcome: 'retrying',
      retryInMs: 1000,
    });
    expect(classifyAttempt(response(500), { ...ctx, attempt: 2 })).toMatchObject({
      outcome: 'retrying',
      retryInMs: 60_000,
    });
  });

  it('when the target was refused (SSRF guard), then the delivery fails at once without a retry', () => {
    const o = classifyAttempt(failure('refused: internal.example resolves to 10.0.0.1', true), ctx);
    expect(o).toEqual({
      outcome: 'failed',
      statusCode: 0,
      durationMs: 7,
      error: 'refused: internal.example resolves to 10.0.0.1',
    });
  });

  it('when the network fails, then the attempt is retried with the error text', () => {
    expect(classifyAttempt(failure('ECONNREFUSED: connect ECONNREFUSED 203.0.113.9:443'), ctx)).toEqual({
      outcome: 'retrying',
      statusCode: 0,
      durationMs: 7,
      error: 'ECONNREFUSED: connect ECONNREFUSED 203.0.113.9:443',
      retryInMs: 1000,
    });
  });

  it('when a single attempt (a test send or a resend) fails, then it is failed without a retry or a count of attempts, and a 410 still disables', () => {
    const single: OutcomeContext = { ...ctx, retry: null };
    expect(classifyAttempt(response(500), single)).toEqual({
      outcome: 'failed',
      statusCode: 500,
      durationMs: 42,
      error: 'HTTP 500',
    });
    expect(classifyAttempt(failure('timed out after 15000 ms'), single)).toEqual({
      outcome: 'failed',
      statusCode: 0,
      durationMs: 7,
      error: 'timed out after 15000 ms',
    });
    expect(classifyAttempt(response(410), single).disable).toMatchObject({ subscriptionId: 'sub_1' });
    expect(classifyAttempt(response(204), single).outcome).toBe('succeeded');
  });

  it('when the last attempt of the schedule fails, then the delivery gives up and says after how many attempts', () => {
    expect(classifyAttempt(response(500), { ...ctx, attempt: 3 })).toEqual({
      outcome: 'failed',
      statusCode: 500,
      durationMs: 42,
      error: 'HTTP 500; gave up after 3 attempts',
    });
    expect(
      classifyAttempt(failure('timed out after 15000 ms'), { ...ctx, attempt: 1, retry: { ...retry, schedule: [] } }),
    ).toEqual({
      outcome: 'failed',
      statusCode: 0,
      durationMs: 7,
      error: 'timed out after 15000 ms; gave up after 1 attempt',
    });
    // Retry-After does not extend the schedule.
    expect(classifyAttempt(response(429, { retryAfter: '5' }), { ...ctx, attempt: 3 })).toMatchObject({
      outcome: 'failed',
      error: 'HTTP 429; gave up after 3 attempts',
    });
  });
});

describe('isHostFailure', () => {
  it('when the host errs, times out or answers 5xx/429, then it counts against the host; other answers and refusals do not', () => {
    expect(isHostFailure(failure('ECONNRESET'))).toBe(true);
    expect(isHostFailure(response(500))).toBe(true);
    expect(isHostFailure(response(429))).toBe(true);
    expect(isHostFailure(failure('refused', true))).toBe(false);
    expect(isHostFailure(response(404))).toBe(false);
    expect(isHostFailure(response(410))).toBe(false);
    expect(isHostFailure(response(200))).toBe(false);
  });
});
