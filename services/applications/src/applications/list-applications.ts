import { decodeCursor, pageSize, toPage } from '@switchboard/platform';
import type { ListApplicationsRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/ListApplicationsRequest';
import type { Deps } from '../context';
import { readPage, type ApplicationView } from './repository';

/** One page of the account's applications in creation order; nextCursor is empty on the last page. */
export async function listApplications(deps: Deps, req: ListApplicationsRequest__Output): Promise<{ items: ApplicationView[]; nextCursor: string }> {
  const n = pageSize(req.limit);
  const after = req.cursor ? decodeCursor('a', req.cursor) : undefined;
  // A raw prepared read on the pool (repository.ts): no identity map, so no per-call fork.
  return toPage(await readPage(deps.orm.em, req.accountId, after, n + 1), n, 'a');
}
