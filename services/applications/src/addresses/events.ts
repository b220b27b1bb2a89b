// addresses.changed: an address got a new owner or none (claimed, moved, released), written to the
// outbox in the transaction of the change, so a cache of ResolveAddress can drop the entry.
import type { EntityManager } from '@mikro-orm/postgresql';
import { SUBJECTS } from '@switchboard/events';
import type { AuditContext } from '@switchboard/db';
import { applicationPath } from '../applications/repository.ts';
import { auditWithFlush } from '../audit/repository.ts';
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

/**
 * The audit entry of a claim, move or release made through the API, with the change's flush: its
 * target is the address under the application that owns it now (or owned it, for a release). A
 * session token is a credential (it launches sessions): its target reads `/addresses/token/***`.
 */
export function auditChange(
  tx: EntityManager,
  action: 'address.claim' | 'address.move' | 'address.release',
  change: AddressChange,
  audit: AuditContext | undefined,
): void {
  const owner = change.applicationId ?? change.previousApplicationId!;
  auditWithFlush(
    tx,
    {
      accountId: change.accountId,
      action,
      target: `${applicationPath(owner)}/addresses/${change.type}/${change.type === 'token' ? '***' : change.address}`,
      outcome: 'success',
    },
    audit,
  );
}
