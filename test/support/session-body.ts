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
