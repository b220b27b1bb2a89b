import type { Deps } from '../context.ts';
import { deleteSessionsOnce } from './repository.ts';

const BATCH = 5000;

/**
 * Deletes the session records of a deleted application (with its signals and rollups), or those
 * without an application of a deleted account, in short transactions of BATCH sessions. Late
 * records of either are refused at insert by their tombstones. Idempotent.
 */
export async function deleteSessions(
  deps: Pick<Deps, 'orm' | 'schema'>,
  owner: { applicationId: string } | { accountId: string },
): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await deleteSessionsOnce(deps.orm.em, deps.schema, owner, BATCH);
    total += n;
    if (n < BATCH) return total;
  }
}
