import { beforeAll, describe, expect, it } from 'vitest';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { SessionRecord } from '@switchboard/contracts';
import { partitionName, storeInPartitions } from '@switchboard/db';
import { createLogger } from '@switchboard/observability';
import { queryDatabase } from '../../../test/support';
import { useWebhooksDatabase } from './harness';
import { storeSession } from '../src/sessions/store-session';

const DAY = 86_400_000;
const _logger = createLogger('test', 'silent');

describe('partitions made for the rows stored', () => {
  const db = useWebhooksDatabase();
  let orm: MikroORM;
  beforeAll(async () => {
    orm = await db.open();
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
