import type { Deps } from '../context.ts';
import { insertSignal } from './repository.ts';

/**
 * Keeps a signal the Session API queued (it published it for the telephony core: status
 * "queued"), by its session's id; it shows in the session when that is read, whichever came first.
 */
export function storeSignal(
  deps: Pick<Deps, 'orm' | 'schema'>,
  s: { seq: number; sessionId: string; value: string; at: Date },
): Promise<boolean> {
  return insertSignal(deps.orm.em, deps.schema, { ...s, status: 'queued' });
}
