// Who made a change through the API, carried with the gRPC call that makes it (metadata
// `x-audit-bin`), so the owning service writes the audit entry in the change's own transaction.
import type { Metadata } from '@grpc/grpc-js';
import { z } from 'zod';

export const AUDIT_KEY = 'x-audit-bin';

/** Config field of the services that keep an audit log (spread into their zod schema). */
export const auditFields = {
  AUDIT_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(3650)
    .default(90)
    .describe(
      'Days the audit log (`GET /v1/audit-events`) keeps the entries this service writes; older ones are dropped by its retention pass (at start and every `PRUNE_INTERVAL_MS`).',
    ),
};

export interface AuditActor {
  type: 'password' | 'key' | 'session';
  id: string;
  name?: string;
}

export interface AuditContext {
  actor: AuditActor;
  /** The client's address. */
  ip: string;
  requestId: string;
}

/**
 * A failed sign-in is recorded at most once in this long per account, credential, action and client
 * address (the applications service checks its log; each gateway also skips the calls it made in
 * it): an attacker repeating a guess cannot grow the log faster than that.
 */
export const AUDIT_FAILURE_WINDOW_MS = 60_000;

export function auditMetadataValue(audit: AuditContext): Buffer {
  return Buffer.from(JSON.stringify(audit), 'utf8');
}

/** The audit context a call carries, when it carries a well-formed one. */
export function auditOf(metadata: Metadata): AuditContext | undefined {
  const raw = metadata.get(AUDIT_KEY)[0];
  if (!(raw instanceof Buffer) || raw.length > 4096) return undefined;
  try {
    const a = JSON.parse(raw.toString('utf8')) as AuditContext;
    if (!a?.actor || !['password', 'key', 'session'].includes(a.actor.type) || typeof a.actor.id !== 'string')
      return undefined;
    return {
      actor: {
        type: a.actor.type,
        id: a.actor.id,
        ...(typeof a.actor.name === 'string' ? { name: a.actor.name } : {}),
      },
      ip: String(a.ip ?? ''),
      requestId: String(a.requestId ?? ''),
    };
  } catch {
    return undefined;
  }
}
