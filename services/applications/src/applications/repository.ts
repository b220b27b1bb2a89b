import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '@switchboard/platform';
import { ApplicationSchema, EnvironmentSchema, type Application } from '../db/entities';

const ID = /^[0-9a-f]{24}$/;
const ACCOUNT_ID = /^\d{1,18}$/;

/** The application with this id owned by this account; anything else is "not found". */
export async function findOwned(em: EntityManager, accountId: string, id: string): Promise<Application> {
  if (!ID.test(id) || !ACCOUNT_ID.test(accountId)) throw AppError.notFound('application');
  const app = await em.findOne(ApplicationSchema, { id, accountId });
  if (!app) throw AppError.notFound('application');
  return app;
}

export async function environmentExists(em: EntityManager, id: string): Promise<boolean> {
  return (await em.count(EnvironmentSchema, { id })) > 0;
}

export function isValidId(id: string): boolean {
  return ID.test(id);
}
