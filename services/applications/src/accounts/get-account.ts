import { isAccountId } from '@switchboard/events';
import { AppError } from '@switchboard/errors';
import type { GetAccountRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/GetAccountRequest';
import type { Deps } from '../context.ts';
import { AccountSchema, type Account } from '../db/entities.ts';

export async function getAccount(deps: Deps, req: GetAccountRequest__Output): Promise<Account> {
  if (!isAccountId(req.id)) throw AppError.notFound('user');
  const account = await deps.orm.em.fork().findOne(AccountSchema, { id: req.id });
  if (!account) throw AppError.notFound('user');
  return account;
}
