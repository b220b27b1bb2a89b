import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '@switchboard/platform';
import { pruneSessions } from '../console-sessions/repository.ts';
import { pruneAudit } from './repository.ts';

/**
 * Every `everyMs` (and once now): drops audit entries older than AUDIT_RETENTION_DAYS and browser
 * sessions that can no longer be used. Returns the function that stops it.
 */
export function startCredentialPruning(
  orm: MikroORM,
  opts: { retentionDays: number; idleMs: number; everyMs: number },
  logger: Logger,
): () => void {
  const run = () => {
    Promise.all([pruneAudit(orm.em, opts.retentionDays), pruneSessions(orm.em, opts.idleMs)]).catch((err: unknown) =>
      logger.warn({ err: (err as Error).message }, 'pruning audit entries and sessions failed; will retry'),
    );
  };
  run();
  const timer = setInterval(run, opts.everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
