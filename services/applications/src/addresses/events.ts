// addresses.changed: an address got a new owner or none (claimed, moved, released), written to the
// outbox in the transaction of the change, so a cache of ResolveAddress can drop the entry.
import type { EntityManager } from '@mikro-orm/postgresql';
import { SUBJECTS } from '@switchboard/platform';
import { enqueueEvent } from '../outbox/outbox.ts';
import type { AddressType } from './rules.ts';

export interface AddressChange {
  type: AddressType;
  address: string;
  /** The owner now; null when released. */
  applicationId: string | null;
  /** The owner before; null when newly claimed. */
  previousApplicationId: string | null;
  accountId: string;
}

export function announceChange(tx: EntityManager, change: AddressChange): void {
  enqueueEvent(tx, SUBJECTS.addressesChanged, { ...change });
}
