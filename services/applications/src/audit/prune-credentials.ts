import type { MikroORM } from '@mikro-orm/postgresql';
import { startBackgroundLoop, type BackgroundLoop, type Logger } from '@switchboard/platform';
import { pruneSessions } from '../console-sessions/repository.ts';
import { pruneLaunchBudgets } from '../sessions/repository.ts';
import { pruneAudit } from './repository.ts';

/**
 * At start and then every `everyMs`, on every replica: drops audit entries older than
 * AUDIT_RETENTION_DAYS, browser sessions that can no longer be used and launch budgets that have
 * refilled (a missing one is a full one), and whatever `more` prunes (the idempotency keys). Each delete is idempotent, so replicas pruning at once
 * only repeat a delete that finds nothing.
 */
export function startCredentialPruning(
  orm: MikroORM,
  opts: { retentionDays: number; idleMs: number; everyMs: number; more?: () => Promise<unknown> },
  logger: Logger,
): BackgroundLoop {
  return startBackgroundLoop(
    async () => {
      await Promise.all([
        pruneAudit(orm.em, opts.retentionDays),
        pruneSessions(orm.em, opts.idleMs),
        pruneLaunchBudgets(orm.em),
        opts.more?.(),
      ]);
      return false;
    },
    {
      intervalMs: opts.everyMs,
      logger,
      failure: 'pruning audit entries, sessions, launch budgets or idempotency keys failed; will retry',
    },
  );
}
