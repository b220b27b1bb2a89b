import { AppError } from '@switchboard/errors';
import { decodeCursor, pageSize, toPage } from '@switchboard/contracts';
import type { ListAvailableNumbersRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/ListAvailableNumbersRequest';
import type { Deps } from '../context.ts';
import { readFreeNumbers, type AddressView } from '../addresses/repository.ts';
import { normalisePrefix } from './e164.ts';

/** One page of the free numbers starting with the prefix (all when empty), in number order. */
export async function listAvailableNumbers(
  deps: Deps,
  req: ListAvailableNumbersRequest__Output,
): Promise<{ items: AddressView[]; nextCursor: string }> {
  const prefix = req.prefix.trim() === '' ? '' : normalisePrefix(req.prefix);
  if (prefix === undefined)
    throw AppError.invalid([{ field: 'prefix', message: 'must be the leading digits of E.164 numbers, such as 1407' }]);
  const n = pageSize(req.limit);
  const after = req.cursor ? decodeCursor('n', req.cursor) : undefined;
  return toPage(await readFreeNumbers(deps.orm.em, prefix, after, n + 1), n, 'n');
}
