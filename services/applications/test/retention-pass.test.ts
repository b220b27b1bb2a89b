// The applications service's retention pass (audit/prune-credentials.ts), on a real Postgres: it
// runs at start (a replica restarted more often than PRUNE_INTERVAL_MS still prunes) and removes
// audit entries past AUDIT_RETENTION_DAYS (failed sign-ins among them), browser sessions ended or
// idle, and idempotency keys past 24 h, keeping the fresh ones.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { MikroORM } from '@mikro-orm/postgresql';
import { poolOf, IdempotencyStore } from '@switchboard/db';
import { createLogger } from '@switchboard/observability';
import { SecretBox } from '@switchboard/security';
import { queryDatabase, useMigratedOrm, waitFor, type TestDatabase } from '../../../test/support';
import { startCredentialPruning } from '../src/audit/prune-credentials';
import { SCHEMA } from '../src/db/schema';

const logger = createLogger('test', 'silent');

describe('the retention pass of the applications service', () => {
  let db: TestDatabase;
  let orm: MikroORM;
  useMigratedOrm(
    { ...SCHEMA, schema: 'applications', poolMax: 2, secrets: SecretBox.fromText(randomBytes(32).toString('base64')) },
    (f) => ({ db, orm } = f),
  );

  it('when it starts with an hour to its next tick, then rows past their retention go at once and fresh ones stay', async () => {
    await queryDatabase(
      db.url,
      `insert into applications.accounts (id, username, password_hash) values (1, 'ret', 'x');
       insert into applications.audit_events (account_id, at, actor_type, actor_id, action, target, outcome) values
         (1, now() - interval '3 days', 'password', 'ret', 'signIn', 'old', 'failure'),
         (1, now(), 'password', 'ret', 'signIn', 'new', 'failure');
       insert into applications.console_sessions (id, account_id, token_hash, created_at, expires_at, last_seen_at) values
         ('cs_expired', 1, '\\x01', now() - interval '13 hours', now() - interval '1 hour', now() - interval '1 hour'),
         ('cs_idle', 1, '\\x02', now() - interval '2 hours', now() + interval '10 hours', now() - interval '2 hours'),
         ('cs_new', 1, '\\x03', now(), now() + interval '12 hours', now());
       insert into applications.idempotency_keys (account_id, key, request_hash, method, response, created_at) values
         (1, 'old', 'h', 'm', '{}', now() - interval '25 hours'),
         (1, 'new', 'h', 'm', '{}', now());`,
    );
    const loop = startCredentialPruning(
      orm,
      new IdempotencyStore(poolOf(orm.em), 'applications'),
      {
        schema: 'applications',
        retentionDays: 2,
        idleMs: 30 * 60_000,
        everyMs: 3_600_000,
        dayMs: 86_400_000,
        now: () => new Date(),
      },
      logger,
    );
    try {
      await waitFor(
        async () => {
          const rows = await queryDatabase(db.url, `select 1 from applications.audit_events where target = 'old'`);
          return rows.length === 0;
        },
        { what: 'the pass at start' },
      );
    } finally {
      // Waits for the pass under way to end.
      await loop.stop();
    }
    const column = async (sql: string) => (await queryDatabase<{ v: string }>(db.url, sql)).map((r) => r.v).sort();
    expect(await column('select target as v from applications.audit_events')).toEqual(['new']);
    expect(await column('select id as v from applications.console_sessions')).toEqual(['cs_new']);
    expect(await column('select key as v from applications.idempotency_keys')).toEqual(['new']);
  });
});
