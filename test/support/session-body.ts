// What an application's voiceUrl or messagingUrl receives (docs/events.md#session-post), as the tests
// of the dispatcher that sends it and of the OpenAPI document that describes it both expect it.

/** The keys of the `session` object, sorted: every one is always present (`null` where unknown). */
export const SESSION_KEYS = [
  'accountId',
  'applicationId',
  'callId',
  'from',
  'headers',
  'id',
  'initialText',
  'parameters',
  'timestamp',
  'to',
  'userType',
];

/**
 * A sessions.new event of a text session with every field given (before sessionNewSchema parses it),
 * with the fields of `session` in `more` replacing or adding to its own.
 */
export function fullTextSessionEvent(more: Record<string, unknown> = {}) {
  return {
    applicationId: 'app2',
    session: {
      id: '89d3b1a0-0e6b-4a70-9d1e-8d1f5a3d9c11',
      accountId: 7,
      callId: 'c-1',
      timestamp: '2025-03-01T12:00:00+02:00',
      userType: 'HUMAN',
      initialText: 'hi there',
      from: { id: 'jsgoecke', name: 'Jason', channel: 'TEXT', network: 'JABBER' },
      to: { id: 'bot@example.com', e164Id: 'bot@example.com', channel: 'TEXT', network: 'JABBER' },
      headers: { 'x-sbc': 'a' },
      parameters: { lang: 'en' },
      ...more,
    },
  };
}
