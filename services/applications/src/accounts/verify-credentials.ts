import { AppError } from '@switchboard/errors';
import type { VerifyCredentialsRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/VerifyCredentialsRequest';
import type { Deps } from '../context.ts';
import { AccountSchema, type Account } from '../db/entities.ts';
import { dummyHash, hashPassword, needsRehash, verifyPassword } from './password.ts';
import { checkLockout, recordLoginFailure, recordLoginSuccess } from './login-lockout.ts';
import { USERNAME } from './rules.ts';

/** The account these credentials belong to (the gateway's Basic auth); anything else is unauthenticated. */
export async function verifyCredentials(
  deps: Deps,
  req: VerifyCredentialsRequest__Output,
  /** The caller's call: once it has gone, a check still waiting for the KDF is dropped. */
  signal?: AbortSignal,
): Promise<Account> {
  const { username, password } = req;
  const em = deps.orm.em.fork();
  const account = USERNAME.test(username) ? await em.findOne(AccountSchema, { username }) : null;
  // A locked-out username is refused before the KDF, whichever gateway asks (login-lockout.ts); the
  // credential the gateway verified before (priority: the owner's) still goes on to be checked.
  if (account && req.priority !== true) await checkLockout(em, account.id);
  // Always spend the KDF time, so a missing user is not distinguishable by timing. The gateway asks
  // for priority only for a credential it verified before (the owner's, not a guess).
  const ok = await verifyPassword(
    password,
    account?.passwordHash ?? (await dummyHash()),
    req.priority === true,
    signal,
  );
  if (!account || !ok || password.length === 0) {
    if (account) await recordLoginFailure(em, account.id, deps.loginLockout);
    throw new AppError('unauthenticated', 'invalid credentials');
  }
  await recordLoginSuccess(em, account.id);
  if (needsRehash(account.passwordHash)) {
    // Made with older (weaker) parameters: store a hash with the current ones, unless it changed meanwhile.
    const old = account.passwordHash;
    const fresh = await hashPassword(password);
    await em.nativeUpdate(AccountSchema, { id: account.id, passwordHash: old }, { passwordHash: fresh });
    account.passwordHash = fresh;
  }
  return account;
}
