import { describe, expect, it } from 'vitest';
import { AppError } from '@switchboard/errors';
import { deadLetterBody } from './dead-letter';
import { classifyEventError, retryDelayMs, waitDelayMs } from './poison';
import { InvalidEventError } from './schemas';

describe('classifying a failed event', () => {
  const deep = () => {
    let o: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i++) o = { a: o };
    try {
      JSON.stringify(o);
    } catch (err) {
      return err;
    }
    throw new Error('expected JSON.stringify to fail');
  };

  it.each([
    ['a schema failure', new InvalidEventError('accountId: bad', 'cdr.created'), 'refused', 'schema'],
    [
      'an invalid_request answer',
      AppError.invalid([{ field: 'accountId', message: 'is required' }]),
      'refused',
      'refused',
    ],
    ['a not_found answer', new AppError('not_found', 'no such thing'), 'refused', 'refused'],
    ['a body too deep to serialise', deep(), 'refused', 'serialisation'],
    [
      'a cycle',
      (() => {
        const o: Record<string, unknown> = {};
        o.o = o;
        try {
          JSON.stringify(o);
        } catch (e) {
          return e;
        }
      })(),
      'refused',
      'serialisation',
    ],
    ['an unavailable dependency', new AppError('unavailable', 'down'), 'wait', undefined],
    ['an internal error', new AppError('internal', 'boom'), 'retry', undefined],
    ['an unknown error', new Error('what'), 'retry', undefined],
  ])('when handling fails with %s, then the verdict is %s', (_what, err, kind, reason) => {
    const v = classifyEventError(err);
    expect(v.kind).toBe(kind);
    if (reason) expect(v).toMatchObject({ reason });
  });

  it('when an event keeps failing, then the delays grow and are bounded', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(retryDelayMs)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    for (let n = 1; n < 30; n++) expect(waitDelayMs(n)).toBeLessThanOrEqual(6000);
  });
});

describe('dead-letter body', () => {
  const msg = (data: string) => ({
    subject: 'cdr.created',
    seq: 42,
    data: Buffer.from(data),
    info: { stream: 'SWITCHBOARD_INBOUND' },
  });

  it('when the event is JSON, then it is carried verbatim (even when too deep to re-encode)', () => {
    const deep = `{"id":"e","data":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}`;
    const body = deadLetterBody(msg(deep), 'body nests deeper than 32 levels', 1 << 20);
    expect(body.endsWith(`"event":${deep}}`)).toBe(true);
    const parsed = JSON.parse(body) as Record<string, unknown>;
    expect(parsed).toMatchObject({
      subject: 'cdr.created',
      reason: 'body nests deeper than 32 levels',
      stream: 'SWITCHBOARD_INBOUND',
      seq: 42,
    });
  });

  it('when the event is not JSON, then it is carried as a string', () => {
    expect(JSON.parse(deadLetterBody(msg('not json'), 'body is not valid JSON', 1 << 20))).toMatchObject({
      event: 'not json',
    });
  });

  it('when the copy would not fit in a message, then the event is left out and marked', () => {
    const big = JSON.stringify({ x: 'y'.repeat(5000) });
    expect(JSON.parse(deadLetterBody(msg(big), 'r', 2000))).toEqual({
      subject: 'cdr.created',
      reason: 'r',
      stream: 'SWITCHBOARD_INBOUND',
      seq: 42,
      event: null,
      eventTruncated: true,
    });
  });
});
