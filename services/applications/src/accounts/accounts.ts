// Account use cases: verify credentials (gateway), create/list/delete (the account command).
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '@switchboard/platform';
import { AccountSchema, type Account } from '../db/entities';
import { dummyHash, hashPassword, needsRehash, verifyPassword } from './password';

const USERNAME = /^[A-Za-z0-9._@+-]{1,128}$/;

export async function verifyCredentials(em: EntityManager, username: string, password: string): Promise<Account> {
  const account = USERNAME.test(username) ? await em.findOne(AccountSchema, { username }) : null;
  // Always spend the KDF time, so a missing user is not distinguishable by timing.
  const ok = await verifyPassword(password, account?.passwordHash ?? (await dummyHash()));
  if (!account || !ok || password.length === 0) throw new AppError('unauthenticated', 'invalid credentials');
  if (needsRehash(account.passwordHash)) {
    // Made with older (weaker) parameters: store a hash with the current ones, unless it changed meanwhile.
    const old = account.passwordHash;
    const fresh = await hashPassword(password);
    await em.nativeUpdate(AccountSchema, { id: account.id, passwordHash: old }, { passwordHash: fresh });
    account.passwordHash = fresh;
  }
  return account;
}

export async function createAccount(em: EntityManager, username: string, password: string): Promise<Account> {
  const errors = [];
  if (!USERNAME.test(username)) errors.push({ field: 'username', message: 'must be 1-128 characters of letters, digits and . _ @ + -' });
  if (password.length < 8 || password.length > 1024) errors.push({ field: 'password', message: 'must be 8-1024 characters' });
  if (errors.length) throw AppError.invalid(errors);
  if (await em.findOne(AccountSchema, { username })) throw new AppError('conflict', `username ${username} is taken`);
  const account = em.create(AccountSchema, { username, passwordHash: await hashPassword(password), createdAt: new Date() });
  await em.persistAndFlush(account);
  return account;
}

export async function listAccounts(em: EntityManager): Promise<Account[]> {
  return em.find(AccountSchema, {}, { orderBy: { id: 'asc' } });
}

export async function getAccount(em: EntityManager, id: string): Promise<Account> {
  if (!/^\d{1,18}$/.test(id)) throw AppError.notFound('user');
  const account = await em.findOne(AccountSchema, { id });
  if (!account) throw AppError.notFound('user');
  return account;
}

/** Deletes an account and (by cascade) its applications. Returns false when there was none. */
export async function deleteAccount(em: EntityManager, username: string): Promise<boolean> {
  const account = await em.findOne(AccountSchema, { username });
  if (!account) return false;
  await em.removeAndFlush(account);
  return true;
}
