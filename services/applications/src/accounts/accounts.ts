// The account command's operations (create, list; delete is delete-account.ts), also how test
// harnesses make accounts.
// The gateway's use cases are verify-credentials.ts and get-account.ts.
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '@switchboard/errors';
import { AccountSchema, type Account } from '../db/entities.ts';
import { hashPassword } from './password.ts';
import { passwordErrors, USERNAME } from './rules.ts';

export async function createAccount(em: EntityManager, username: string, password: string): Promise<Account> {
  const errors = [];
  if (!USERNAME.test(username))
    errors.push({ field: 'username', message: 'must be 1-128 characters of letters, digits and . _ @ + -' });
  errors.push(...passwordErrors(password));
  if (errors.length) throw AppError.invalid(errors);
  if (await em.findOne(AccountSchema, { username })) throw new AppError('conflict', `username ${username} is taken`);
  const account = em.create(AccountSchema, {
    username,
    passwordHash: await hashPassword(password),
    createdAt: new Date(),
  });
  await em.persist(account).flush();
  return account;
}

export async function listAccounts(em: EntityManager): Promise<Account[]> {
  return em.find(AccountSchema, {}, { orderBy: { id: 'asc' } });
}
