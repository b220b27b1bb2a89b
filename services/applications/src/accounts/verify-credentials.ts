import { AppError } from '@switchboard/platform';
import type { VerifyCredentialsRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/VerifyCredentialsRequest';
import type { Deps } from '../context';
import { AccountSchema, type Account } from '../db/entities';
import { dummyHash, verifyPassword } from './password';
import { USERNAME } from './rules';

/** The account these credentials belong to (the gateway's Basic auth); anything else is unauthenticated. */
export async function verifyCredentials(deps: Deps, req: VerifyCredentialsRequest__Output): Promise<Account> {
  const { username, password } = req;
  const account = USERNAME.test(username) ? await deps.orm.em.fork().findOne(AccountSchema, { username }) : null;
  // Always spend the KDF time, so a missing user is not distinguishable by timing.
  const ok = await verifyPassword(password, account?.passwordHash ?? (await dummyHash()));
  if (!account || !ok || password.length === 0) throw new AppError('unauthenticated', 'invalid credentials');
  return account;
}
