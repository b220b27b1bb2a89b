import type { Deps } from '../context.ts';
import { endSession } from './repository.ts';

/** Deliveries after which an end whose session was never stored is dropped (about 30 s of retries). */
export const END_WAITS_FOR_SESSION = 10;

export class SessionNotStoredYet extends Error {
  constructor(sessionId: string) {
    super(`session ${sessionId} is not stored yet`);
    this.name = 'SessionNotStoredYet';
  }
}

/**
 * Records that the telephony core ended a session (sessions.ended, or the session's cdr.created)
 * and writes its sessionStatus `ended` event, once. A session not stored yet (its record comes when
 * its instructions or failure are published) is waited for: SessionNotStoredYet hands the message
 * back, up to END_WAITS_FOR_SESSION deliveries; then it is dropped (answers false).
 */
export async function storeEnd(
  deps: Pick<Deps, 'orm' | 'schema' | 'publicBaseUrl' | 'outbox'>,
  e: { sessionId: string; at: string; reason?: string | undefined },
  deliveryCount: number,
): Promise<boolean> {
  const r = await endSession(deps.orm.em, deps.schema, deps.publicBaseUrl, e);
  if (r === 'ended') deps.outbox.kick();
  if (r === 'unknown' && deliveryCount < END_WAITS_FOR_SESSION) throw new SessionNotStoredYet(e.sessionId);
  return r === 'ended';
}
