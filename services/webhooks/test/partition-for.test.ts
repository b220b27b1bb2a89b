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

/** A failed session record (no attempts unless given) started at `startedAt`. */
function failedSession(id: string, startedAt: string, more: Partial<SessionRecord> = {}): SessionRecord {
  return {
    id,
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
    ...more,
  };
}

/** What storeSession needs, with days of `dayMs`. */
const depsOf = (orm: MikroORM, dayMs = DAY) => ({
  orm,
  schema: 'webhooks',
  dayMs,
  publicBaseUrl: 'http://localhost:8080',
  outbox: { kick: () => undefined },
});

describe('partitions made for the rows stored', () => {
  const db = useWebhooksDatabase();
  let orm: MikroORM;
  beforeAll(async () => {
    orm = await db.open();
  });

  it('when a session record is of a day ten days ahead, then its day is made and it is stored', async () => {
    const startedAt = new Date(Date.now() + 10 * DAY).toISOString();
    expect(await storeSession(depsOf(orm), failedSession('ses_ahead', startedAt))).toBe(true);
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
    await storeInPartitions(orm.em, 'webhooks', [{ table: 'deliveries', instants: [at] }], insert);
    // Another replica's retention drops the day; this process still thinks it is there.
    await queryDatabase(db.url, `drop table webhooks.${partitionName('deliveries', at)}`);
    await storeInPartitions(orm.em, 'webhooks', [{ table: 'deliveries', instants: [at] }], insert);
    const rows = await queryDatabase<{ n: number }>(db.url, 'select count(*)::int as n from webhooks.deliveries');
    expect(rows[0]!.n).toBe(1);
  });

  it("when a session's alert folds into a minute whose span has no partition, then that span is made and the session and its alert are stored", async () => {
    // Spans of 20 s (a short RETENTION_DAY_MS): a session started 45 s into a minute folds its alert
    // into the minute's first span, which is not the span of its start.
    const dayMs = 20_000;
    const minute = Math.floor((Date.now() - 3_600_000) / 60_000) * 60_000;
    const startedAt = new Date(minute + 45_000).toISOString();
    const record = failedSession('ses_late_minute', startedAt, {
      applicationId: 'app_minute',
      accountId: '8',
      attempts: [
        {
          at: startedAt,
          url: 'https://example.com/voice',
          role: 'primary',
          status: 503,
          durationMs: 12,
          error: 'http_5xx: 503',
          responseContentType: null,
          responseExcerpt: null,
          responseTruncated: false,
        },
      ],
      failure: { reason: 'http_5xx' },
    });
    expect(await storeSession(depsOf(orm, dayMs), record)).toBe(true);
    const alerts = await queryDatabase<{ code: string; minute: Date }>(
      db.url,
      `select code, minute from webhooks.alerts where session_id = 'ses_late_minute'`,
    );
    expect(alerts.map((a) => [a.code, a.minute.getTime()])).toEqual([['app.http_5xx', minute]]);
  });
});
