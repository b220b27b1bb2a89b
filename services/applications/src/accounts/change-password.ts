import { AppError } from '@switchboard/errors';
import type { AuditContext } from '@switchboard/db';
import { auditWithFlush } from '../audit/repository.ts';
import { endAccountSessions } from '../console-sessions/repository.ts';
import type { ChangePasswordRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/ChangePasswordRequest';
import type { CredentialDeps } from '../api-keys/deps.ts';
import { AccountSchema, type Account } from '../db/entities.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { passwordErrors } from './rules.ts';

/**
 * Replaces the account's password once the current one is checked, and ends every browser session
 * of the account in the same transaction (with `revokeKeys`, every API key too); the gateways are
 * told to forget the old password (and the keys).
 */
export async function changePassword(
  deps: Pick<CredentialDeps, 'orm' | 'announceRevoked'>,
  req: ChangePasswordRequest__Output,
  audit?: AuditContext,
  /** The caller's call: once it has gone, a check still waiting for the KDF is dropped. */
  signal?: AbortSignal,
): Promise<Account> {
  const errors = passwordErrors(req.new, 'new');
  if (errors.length) throw AppError.invalid(errors);
  const em = deps.orm.em.fork();
  const found = await em.findOne(AccountSchema, { id: req.accountId });
  if (!found) throw AppError.notFound('user');
  if (!(await verifyPassword(req.current, found.passwordHash, false, signal)))
    throw AppError.invalid([{ field: 'current', message: 'is not the current password' }]);
  const passwordHash = await hashPassword(req.new);
  const account = await em.transactional(async (tx) => {
    const a = await tx.findOneOrFail(AccountSchema, { id: req.accountId });
    a.passwordHash = passwordHash;
    await endAccountSessions(tx, a.id);
    if (req.revokeKeys) {
      const schema = `"${tx.config.get('schema')}"`;
      const keys = await tx
        .getConnection()
        .execute<{ id: string }[]>(`delete from ${schema}.api_keys where account_id = ? returning id`, [a.id]);
      for (const k of keys)
        auditWithFlush(
          tx,
          { accountId: a.id, action: 'api-key.revoke', target: `/v1/api-keys/${k.id}`, outcome: 'success' },
          audit,
        );
    }
    auditWithFlush(
      tx,
      { accountId: a.id, action: 'password.change', target: `/v1/users/${a.id}`, outcome: 'success' },
      audit,
    );
    return a;
  });
  deps.announceRevoked({
    accountId: account.id,
    username: account.username,
    ...(req.revokeKeys ? { allKeys: true } : {}),
  });
  return account;
}
