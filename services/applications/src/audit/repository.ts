// The audit log: one row per change made through the API (and per sign-in), written by the
// statement or transaction of the change itself, so a change and its entry never part. The table's
// statements are shared with the webhooks service (@switchboard/db's audit.ts); the unit-of-work
// form (auditWithFlush) is this service's, whose changes go through entities.
import type { EntityManager } from '@mikro-orm/postgresql';
import { auditValues, type AuditEntry } from '@switchboard/db';
import type { AuditContext } from '@switchboard/db';
import { AuditEventSchema } from '../db/entities.ts';

export {
  AUDIT_COLUMNS,
  auditValues,
  pruneAudit,
  recordAlone,
  recordIn,
  recordUnlessRecent,
  type AuditEntry,
} from '@switchboard/db';

/** Persists the entry with the entity manager's next flush (the change it records is in the same transaction). */
export function auditWithFlush(em: EntityManager, entry: AuditEntry, audit: AuditContext | undefined): void {
  const [accountId, actorType, actorId, actorName, action, target, ip, requestId, outcome] = auditValues(
    entry,
    audit,
  ) as string[];
  em.persist(
    em.create(AuditEventSchema, {
      accountId: accountId!,
      at: new Date(),
      actorType: actorType!,
      actorId: actorId!,
      actorName: actorName ?? null,
      action: action!,
      target: target!,
      ip: ip!,
      requestId: requestId!,
      outcome: outcome!,
    }),
  );
}
