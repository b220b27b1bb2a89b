import type { Deps } from '../context.ts';
import { insertSignal } from './repository.ts';

/**
 * Keeps a signal the Session API queued (it published it for the telephony core: status
 * "queued"), by its session's id; it shows in the session when that is read, whichever came first.
 */
export async function storeSignal(
  deps: Pick<Deps, 'orm' | 'schema' | 'publicBaseUrl' | 'outbox'>,
  s: { seq: number; sessionId: string; value: string; at: Date },
): Promise<boolean> {
  const stored = await insertSignal(deps.orm.em, deps.schema, deps.publicBaseUrl, { ...s, status: 'queued' });
  if (stored) deps.outbox.kick();
  return stored;
}
