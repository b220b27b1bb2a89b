// The operator's number inventory (npm run numbers): add, list, remove. Works on the schema
// directly, like the account command.
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '@switchboard/errors';
import { announceChange } from '../addresses/events.ts';
import { displayNumber, exchangeOf, isE164 } from './e164.ts';
import { deleteNumber, insertNumbers, lockNumber, selectNumbers } from './repository.ts';

export interface NumberDetails {
  city?: string | undefined;
  state?: string | undefined;
  country?: string | undefined;
  smsEnabled: boolean;
}

export interface InventoryEntry {
  number: string;
  displayNumber: string;
  prefix: string;
  city: string | null;
  state: string | null;
  country: string | null;
  smsEnabled: boolean;
  applicationId: string | null;
}

/** Adds numbers (already E.164) to the inventory; numbers already there are left as they are. Returns how many were new. */
export async function addNumbers(
  em: EntityManager,
  numbers: readonly string[],
  details: NumberDetails,
): Promise<number> {
  const bad = numbers.find((n) => !isE164(n));
  if (bad) throw new AppError('invalid_request', `${bad}: not an E.164 number`);
  if (details.country !== undefined && !/^[A-Z]{2}$/.test(details.country))
    throw new AppError('invalid_request', '--country must be an ISO 3166 code of two letters, such as US');
  let added = 0;
  // Batches keep each statement's array parameter small.
  for (let i = 0; i < numbers.length; i += 10_000) {
    const rows = await insertNumbers(em, numbers.slice(i, i + 10_000), {
      city: details.city ?? null,
      state: details.state ?? null,
      country: details.country ?? null,
      smsEnabled: details.smsEnabled,
    });
    added += rows.length;
  }
  return added;
}

export async function listNumbers(em: EntityManager): Promise<InventoryEntry[]> {
  const rows = await selectNumbers(em);
  return rows.map((r) => ({
    number: r.number,
    displayNumber: displayNumber(r.number),
    prefix: exchangeOf(r.number),
    city: r.city,
    state: r.state,
    country: r.country,
    smsEnabled: r.sms_enabled,
    applicationId: r.application_id,
  }));
}

/**
 * Removes a number from the inventory. A claimed number is refused (its application would lose it
 * silently) unless `force`: then it is released first, with an addresses.changed event.
 * Returns false when the number is not in the inventory.
 */
export async function removeNumber(em: EntityManager, number: string, force: boolean): Promise<boolean> {
  return em.transactional(async (tx) => {
    const row = await lockNumber(tx, number);
    if (!row) return false;
    if (row.application_id) {
      if (!force)
        throw new AppError(
          'conflict',
          `${number} is claimed by application ${row.application_id}; release it first, or pass --force to release and remove it`,
        );
      announceChange(tx, {
        type: 'number',
        address: number,
        applicationId: null,
        previousApplicationId: row.application_id,
        accountId: row.account_id ?? '',
      });
    }
    await deleteNumber(tx, number);
    return true;
  });
}
