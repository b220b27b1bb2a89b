// What the operator commands (npm run account, npm run numbers) share: they work on this service's
// schema directly, so they need no running service. Opens it with the command's configuration and a
// quiet logger (LOG_LEVEL, default warn), migrating it first.
import type { MikroORM } from '@mikro-orm/postgresql';
import { initMigratedOrm } from '@switchboard/db';
import { AppError } from '@switchboard/errors';
import { createLogger } from '@switchboard/observability';
import { loadCommandConfig } from './config.ts';
import { SCHEMA } from './db/schema.ts';

export type CommandConfig = ReturnType<typeof loadCommandConfig>;

export async function openCommandDatabase(
  command: string,
  config: CommandConfig = loadCommandConfig(),
): Promise<MikroORM> {
  const logger = createLogger(command, process.env.LOG_LEVEL ?? 'warn');
  return initMigratedOrm(
    {
      ...SCHEMA,
      databaseUrl: config.DATABASE_URL,
      schema: config.DB_SCHEMA,
      poolMax: 2,
      logger,
      secrets: config.SECRETS_KEY,
    },
    5_000,
  );
}

/** The line a command prints on stderr for an error: a problem's detail, or the error's message. */
export function commandError(err: unknown): string {
  return `${err instanceof AppError ? err.detail : err instanceof Error ? err.message : String(err)}\n`;
}
