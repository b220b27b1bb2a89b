import type { EntityManager } from '@mikro-orm/postgresql';
import { isEnvironmentId } from '@switchboard/events';
import { EnvironmentSchema, type Environment } from '../db/entities.ts';

// Environments change only through migrations: their ids are read once a minute, not per request,
// and the creates that find the list stale wait for one read between them.
let environmentIds: { ids: Set<string>; at: number } | undefined;
let reading: Promise<Set<string>> | undefined;

export async function environmentExists(em: EntityManager, id: string): Promise<boolean> {
  if (environmentIds && Date.now() - environmentIds.at <= 60_000 && environmentIds.ids.has(id)) return true;
  reading ??= em
    .find(EnvironmentSchema, {}, { fields: ['id'] })
    .then((rows) => {
      environmentIds = { ids: new Set(rows.map((r) => r.id)), at: Date.now() };
      return environmentIds.ids;
    })
    .finally(() => {
      reading = undefined;
    });
  return (await reading).has(id);
}

/** The environment with this id, or undefined (ids are 64-bit integers). */
export async function findEnvironment(em: EntityManager, id: string): Promise<Environment | undefined> {
  if (!isEnvironmentId(id)) return undefined;
  return (await em.findOne(EnvironmentSchema, { id })) ?? undefined;
}
