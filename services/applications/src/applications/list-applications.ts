import { decodeCursor, pageSize, toPage } from '@switchboard/contracts';
import type { ListApplicationsRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/ListApplicationsRequest';
import type { Application as Message } from '@switchboard/proto/generated/switchboard/applications/v1/Application';
import type { Deps } from '../context.ts';
import { listMessage } from './mapper.ts';
import { readPage } from './repository.ts';

/** One page of the account's applications in creation order, as messages; nextCursor is empty on the last page. */
export async function listApplications(
  deps: Deps,
  req: ListApplicationsRequest__Output,
): Promise<{ items: Message[]; nextCursor: string }> {
  const n = pageSize(req.limit);
  const after = req.cursor ? decodeCursor('a', req.cursor) : undefined;
  // A raw prepared read on the pool (repository.ts): no identity map, so no per-call fork; each
  // row becomes its message directly.
  const page = toPage(await readPage(deps.orm.em, req.accountId, after, n + 1), n, 'a');
  return { items: page.items.map((r) => listMessage(r, req.accountId)), nextCursor: page.nextCursor };
}
