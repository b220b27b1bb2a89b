import { describe, expect, it } from 'vitest';
import { depthExceeds, InvalidEventError, MAX_EVENT_DEPTH, parseEvent } from './schemas';

describe('inbound event schemas (docs/events.md#inbound)', () => {
  it('when a session event is well formed, then it parses with channel and user type normalised', () => {
    const p = parseEvent(
      'sessions.new',
      JSON.stringify({
        applicationId: 'app1',
        session: { accountId: 33932, from: { id: '+1555', channel: 'voice' }, userType: 'human' },
      }),
    );
    expect(p.kind).toBe('session');
    if (p.kind !== 'session') return;
    expect(p.event.session.accountId).toBe('33932');
    expect(p.event.session.from?.channel).toBe('VOICE');
    expect(p.event.session.userType).toBe('HUMAN');
  });

  it('when a session was launched by the Session API, then its userType NONE is accepted', () => {
    const p = parseEvent(
      'sessions.new',
      JSON.stringify({
        applicationId: 'app1',
        session: { id: 'abc', userType: 'none', from: { id: null, channel: 'TEXT' } },
      }),
    );
    expect(p.kind === 'session' && p.event.session.userType).toBe('NONE');
    expect(() =>
      parseEvent('sessions.new', JSON.stringify({ applicationId: 'app1', session: { userType: 'ROBOT' } })),
    ).toThrow(InvalidEventError);
  });

  it('when a CDR event is well formed, then it parses with its webhook event name', () => {
    const body = {
      id: 'e1',
      accountId: '7',
      resource: 'call',
      timestamp: '2025-01-01T00:00:00Z',
      data: { duration: 3 },
    };
    const p = parseEvent('cdr.rated', JSON.stringify(body));
    expect(p).toMatchObject({
      kind: 'notification',
      webhookEvent: 'cdrRated',
      event: { ...body, applicationId: null },
    });
    const dlr = parseEvent('sms.dlr', JSON.stringify({ ...body, resource: undefined, applicationId: 'a1' }));
    expect(dlr).toMatchObject({ webhookEvent: 'smsdlr', event: { resource: 'sms', applicationId: 'a1' } });
  });

  it.each([
    ['sessions.new', 'not json'],
    ['sessions.new', '{"session":{}}'],
    ['sessions.new', '{"applicationId":"a","session":{"from":{"channel":"FAX"}}}'],
    ['sessions.new', '{"applicationId":"a","session":{"timestamp":"yesterday"}}'],
    ['sessions.new', '{"applicationId":"a","session":"hello"}'],
    ['cdr.created', '{"id":"e","accountId":"7","resource":"fax","timestamp":"2025-01-01T00:00:00Z","data":{}}'],
    ['cdr.created', '{"id":"e","accountId":"seven","resource":"call","timestamp":"2025-01-01T00:00:00Z","data":{}}'],
    ['cdr.created', '{"id":"e","accountId":"7","resource":"call","timestamp":"2025-01-01T00:00:00Z"}'],
    ['sms.dlr', '{"id":"e","accountId":"7","resource":"call","timestamp":"2025-01-01T00:00:00Z","data":{}}'],
    ['cdr.unknown', '{}'],
    ['cdr.created', '{"id":"e","accountId":"0","resource":"call","timestamp":"2025-01-01T00:00:00Z","data":{}}'],
    ['cdr.created', '{"id":"e","accountId":"007","resource":"call","timestamp":"2025-01-01T00:00:00Z","data":{}}'],
    ['cdr.created', '{"id":"e","accountId":0,"resource":"call","timestamp":"2025-01-01T00:00:00Z","data":{}}'],
    [
      'cdr.created',
      '{"id":"e\\u0000x","accountId":"7","resource":"call","timestamp":"2025-01-01T00:00:00Z","data":{}}',
    ],
    [
      'cdr.created',
      '{"id":"e","accountId":"7","applicationId":"a\\u0000","resource":"call","timestamp":"2025-01-01T00:00:00Z","data":{}}',
    ],
    [
      'cdr.created',
      '{"id":"e","accountId":"7","applicationId":"a b","resource":"call","timestamp":"2025-01-01T00:00:00Z","data":{}}',
    ],
    [
      'cdr.created',
      `{"id":"e","accountId":"7","resource":"call","timestamp":"2025-01-01T00:00:00Z","data":{"x":"${'y'.repeat(300_000)}"}}`,
    ],
    [
      'cdr.created',
      `{"id":"e","accountId":"7","resource":"call","timestamp":"2025-01-01T00:00:00Z","data":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`,
    ],
    ['sessions.new', '{"applicationId":"app\\u0001","session":{}}'],
    ['sessions.new', '{"applicationId":"app","session":{"id":"s\\u0000"}}'],
  ])('when %s carries %.120s, then it is rejected', (subject, body) => {
    expect(() => parseEvent(subject, body)).toThrow(InvalidEventError);
  });
});

describe('event limits', () => {
  it('when data nests up to the limit, then it parses; one level more is refused with the depth as reason', () => {
    const nest = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
    const body = (n: number) =>
      `{"id":"e","accountId":"7","resource":"call","timestamp":"2025-01-01T00:00:00Z","data":${nest(n)}}`;
    expect(parseEvent('cdr.created', body(MAX_EVENT_DEPTH - 1)).kind).toBe('notification');
    expect(() => parseEvent('cdr.created', body(MAX_EVENT_DEPTH))).toThrow(/deeper than 32 levels/);
    expect(depthExceeds([[[]]], 3)).toBe(false);
    expect(depthExceeds([[[[]]]], 3)).toBe(true);
  });
});
