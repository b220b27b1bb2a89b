import { describe, expect, it } from 'vitest';
import { fullTextSessionEvent } from '../../../../test/support/session-body';
import { sessionNewSchema } from '../events/schemas';
import { buildNotificationBody, buildSessionBody, sessionChannel } from './bodies';

const received = new Date('2025-03-01T10:00:00.000Z');

describe('session body (docs/events.md#signatures)', () => {
  it('when a voice session is sparse, then every key is present with nulls, {} and the account of the application', () => {
    const ev = sessionNewSchema.parse({
      applicationId: 'app1',
      session: { from: { id: '+14155550100', channel: 'VOICE', network: 'PSTN' } },
    });
    expect(buildSessionBody(ev, '42', received)).toEqual({
      session: {
        id: null,
        accountId: '42',
        applicationId: 'app1',
        callId: null,
        timestamp: '2025-03-01T10:00:00.000Z',
        userType: null,
        initialText: null,
        from: { id: '+14155550100', e164Id: '+14155550100', name: 'unknown', channel: 'VOICE', network: 'PSTN' },
        to: { id: null, e164Id: null, name: 'unknown', channel: 'VOICE', network: null },
        headers: {},
        parameters: {},
      },
    });
  });

  it('when a text session is full, then its values are kept, initialText included, and the timestamp is UTC with Z', () => {
    const ev = sessionNewSchema.parse(fullTextSessionEvent());
    const { session } = buildSessionBody(ev, '99', received);
    expect(session).toEqual({
      id: '89d3b1a0-0e6b-4a70-9d1e-8d1f5a3d9c11',
      accountId: '7',
      applicationId: 'app2',
      callId: 'c-1',
      timestamp: '2025-03-01T10:00:00.000Z',
      userType: 'HUMAN',
      initialText: 'hi there',
      from: { id: 'jsgoecke', e164Id: 'jsgoecke', name: 'Jason', channel: 'TEXT', network: 'JABBER' },
      to: { id: 'bot@example.com', e164Id: 'bot@example.com', name: 'unknown', channel: 'TEXT', network: 'JABBER' },
      headers: { 'x-sbc': 'a' },
      parameters: { lang: 'en' },
    });
    expect(sessionChannel(ev.session)).toBe('TEXT');
  });

  it('when no channel is given, then a session with initialText is TEXT and one without is VOICE', () => {
    expect(sessionChannel({ initialText: 'x' })).toBe('TEXT');
    expect(sessionChannel({})).toBe('VOICE');
    expect(sessionChannel({ to: { channel: 'TEXT' } })).toBe('TEXT');
  });
});

describe('notification body', () => {
  it('when built, then it carries the event, the subscription name and payload', () => {
    const body = buildNotificationBody(
      'cdrCreated',
      {
        id: 'e1',
        accountId: '7',
        applicationId: null,
        resource: 'call',
        timestamp: '2025-03-01T12:00:00+02:00',
        data: { d: 1 },
      },
      { name: 'billing', payload: { team: 'x' } },
    );
    expect(body).toEqual({
      id: 'e1',
      name: 'billing',
      event: 'cdrCreated',
      resource: 'call',
      timestamp: '2025-03-01T10:00:00.000Z',
      accountId: '7',
      applicationId: null,
      data: { d: 1 },
      payload: { team: 'x' },
    });
  });
});
