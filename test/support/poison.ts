// Poison events: bodies of `cdr.created` events that the services refuse for good, one kind after
// another (the dispatcher dead-letters them). Shared by the dispatcher's test and the proof.

/** How many kinds poisonEvent cycles through. */
export const POISON_KINDS = 6;

/**
 * Event number i (kind i % POISON_KINDS): account id "0", account id "007", a NUL in the
 * application id, a NUL in the event id, `data` nested 5,000 deep, not JSON. The id is `${prefix}${i}`
 * (with a NUL after the prefix for the NUL-in-id kind).
 */
export function poisonEvent(i: number, accountId: string, prefix = 'p'): string {
  const timestamp = new Date().toISOString();
  const base = { id: `${prefix}${i}`, accountId, resource: 'call', timestamp, data: { n: i } };
  switch (i % POISON_KINDS) {
    case 0:
      return JSON.stringify({ ...base, accountId: '0' });
    case 1:
      return JSON.stringify({ ...base, accountId: '007' });
    case 2:
      return JSON.stringify({ ...base, applicationId: `app\u0000${i}` });
    case 3:
      return JSON.stringify({ ...base, id: `${prefix}\u0000${i}` });
    case 4:
      return `{"id":"${prefix}${i}","accountId":"${accountId}","resource":"call","timestamp":"${timestamp}","data":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`;
    default:
      return `{"id":"${prefix}${i}", not json`;
  }
}
