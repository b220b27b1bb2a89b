import type { MikroORM } from '@mikro-orm/postgresql';
import { startPeriodicJob } from '@switchboard/db';
import type { BackgroundLoop, Logger } from '@switchboard/observability';
import type { IdempotencyStore } from '@switchboard/db';
import { pruneSessions } from '../console-sessions/repository.ts';
import { pruneLaunchBudgets } from '../sessions/repository.ts';
import { pruneAudit } from './repository.ts';

/**
 * At start and every `everyMs`, by one replica at a time: drops audit entries (sign-ins and failed
 * sign-ins among them) older than AUDIT_RETENTION_DAYS, browser sessions that can no longer be
 * used, idempotency keys past their 24 h (days of RETENTION_DAY_MS) and launch budgets untouched for a
 * day (one row per account at most).
 */
export function startCredentialPruning(
  orm: MikroORM,
  idempotency: Pick<IdempotencyStore, 'prune'>,
  opts: { schema: string; retentionDays: number; idleMs: number; everyMs: number; dayMs: number; now: () => Date },
  logger: Logger,
): BackgroundLoop {
  return startPeriodicJob(
    orm,
    async () => {
      await pruneAudit(orm.em, opts.retentionDays, opts.dayMs);
      await pruneSessions(orm.em, opts.idleMs, opts.now());
      await idempotency.prune();
      await pruneLaunchBudgets(orm.em);
    },
    {
      name: 'pruning audit entries, browser sessions, idempotency keys and launch budgets',
      schema: opts.schema,
      intervalMs: opts.everyMs,
      logger,
    },
  );
}
