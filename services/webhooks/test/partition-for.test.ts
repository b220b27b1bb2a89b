// One ensurePartitionFor (orm's partitions.ts) for every partitioned table, on a real Postgres: a
// session record of a day ahead of the partitions made in advance gets its day (before, only days
// up to today were made, so it was never stored), and a day another replica's retention dropped
// after this process made it is made again when a row of it comes.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { SessionRecord } from '@switchboard/contracts';
import { partitionName, initOrm, migrate, storeInPartitions } from '@switchboard/db';
import { createLogger } from '@switchboard/observability';
import { SecretBox } from '@switchboard/security';
import { createTestDatabase, queryDatabase, type TestDatabase } from '../../../test/support';
import { ENTITIES } from '../src/db/entities';
import { MIGRATIONS } from '../src/db/migrations';
import { storeSession } from '../src/sessions/store-session';

const DAY = 86_400_000;
const logger = createLogger('test', 'silent');

describe('partitions made for the rows stored', () => {
  let db: TestDatabase;
  let orm: MikroORM;
  beforeAll(async () => {
    db = await createTestDatabase();
    orm = await initOrm({
      entities: ENTITIES,
      migrations: MIGRATIONS,
      databaseUrl: db.url,
      schema: 'webhooks',
      poolMax: 2,
      logger,
      secrets: SecretBox.fromText(randomBytes(32).toString('base64')),
    });
    await migrate(orm, 'webhooks', logger);
  });
  afterAll(async () => {
    await orm?.close(true);
    await db?.drop();
  });

  it('when a session record is of a day ten days ahead, then its day is made and it is stored', async () => {
    const startedAt = new Date(Date.now() + 10 * DAY).toISOString();
    const record: SessionRecord = {
      id: 'ses_ahead',
      applicationId: null,
      accountId: '7',
      channel: 'VOICE',
      from: '+15550001',
      to: '+15550002',
      startedAt,
      routedBy: { type: 'address', value: '+15550002' },
      outcome: 'failed',
      attempts: [],
      instructions: null,
      failure: { reason: 'no application' },
    };
    const deps = {
      orm,
      schema: 'webhooks',
      dayMs: 86_400_000,
      publicBaseUrl: 'http://localhost:8080',
      outbox: { kick: () => undefined },
    };
    expect(await storeSession(deps, record)).toBe(true);
    const rows = await queryDatabase<{ id: string }>(db.url, 'select id from webhooks.sessions');
    expect(rows.map((r) => r.id)).toEqual(['ses_ahead']);
  });

  it('when another replica dropped a day this process made, then a row of that day makes it again', async () => {
    const at = new Date(Date.now() - 40 * DAY);
    const insert = () =>
      queryDatabase(
        db.url,
        `insert into webhooks.deliveries (id, message_id, kind, event, target_url, attempt, duration_ms, outcome, created_at)
         values ($1, 'm1', 'notification', 'cdrCreated', 'https://example.com', 1, 5, 'succeeded', $2)`,
        [`del_${Math.random()}`, at],
      );
    await storeInPartitions(orm.em, 'webhooks', 'deliveries', [at], insert);
    // Another replica's retention drops the day; this process still thinks it is there.
    await queryDatabase(db.url, `drop table webhooks.${partitionName('deliveries', at)}`);
    await storeInPartitions(orm.em, 'webhooks', 'deliveries', [at], insert);
    const rows = await queryDatabase<{ n: number }>(db.url, 'select count(*)::int as n from webhooks.deliveries');
    expect(rows[0]!.n).toBe(1);
  });
});
