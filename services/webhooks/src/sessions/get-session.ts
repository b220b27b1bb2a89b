import { AppError } from '@switchboard/errors';
import type { GetSessionRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/GetSessionRequest';
import type { SessionRecord } from '@switchboard/proto/generated/switchboard/webhooks/v1/SessionRecord';
import type { Deps } from '../context.ts';
import { requireAccount } from '../subscriptions/repository.ts';
import { toFullMessage } from './mapper.ts';
import { findSession } from './repository.ts';

/** One session of the account, whole (attempts, instructions, signals); another account's is not found. */
export async function getSession(deps: Deps, req: GetSessionRequest__Output): Promise<SessionRecord> {
  const accountId = requireAccount(req.accountId);
  const id = req.sessionId;
  if (!id || id.length > 200) throw AppError.notFound('session');
  const found = await findSession(deps.orm.em, deps.schema, accountId, id);
  if (!found) throw AppError.notFound('session');
  return toFullMessage(found.session, found.signals);
}
