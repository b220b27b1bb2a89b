import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MikroORM } from '@mikro-orm/postgresql';
import { ensurePartitionFor, poolOf, pruneAudit, startPeriodicJob, IdempotencyStore } from '@switchboard/db';
import { createLogger, type BackgroundLoop } from '@switchboard/observability';
import { queryDatabase, waitFor } from '../../../test/support';
import { useWebhooksDatabase } from './harness';
import { dropExpiredDeliveries } from '../src/deliveries/partitions';
import { pruneDeliveries } from '../src/deliveries/repository';
import { keepSessionsOnce } from '../src/sessions/keep-sessions';
import { pruneUsage, usageCutoff } from '../src/usage/repository';

const logger = createLogger('test', 'silent');
const TOMBSTONE_MS = 60_000;

/** A replica's retention pass over the tombstones, test sends and audit entries. */
const passOf = (orm: MikroORM) => async () => {
  await pruneDeliveries(orm.em.fork(), 'webhooks', 30, TOMBSTONE_MS);
  await pruneAudit(orm.em.fork(), 90);
};

describe('the retention pass', () => {
  const db = useWebhooksDatabase();
  let a: MikroORM;
  let b: MikroORM;
  let account = 1000;
  const loops: BackgroundLoop[] = [];

  /** A deleted account's tombstone, aged `ageMs`; answers its id. */
  const tombstone = async (ageMs: number): Promise<string> => {
    account += 1;
    await queryDatabase(
      db.url,
      `insert into webhooks.deleted_accounts (account_id, deleted_at) values ($1, now() - make_interval(secs => $2::float8 / 1000))`,
      [account, ageMs],
    );
    await queryDatabase(
      db.url,
      `insert into webhooks.deleted_applications (application_id, deleted_at) values ($1, now() - make_interval(secs => $2::float8 / 1000))`,
      [`app_${account}`, ageMs],
    );
    return String(account);
  };
  const tombstones = async () =>
    (
      await queryDatabase<{ id: string }>(
        db.url,
        'select account_id::text as id from webhooks.deleted_accounts order by 1',
      )
    ).map((r) => r.id);
  const applicationTombstones = async () =>
    (
      await queryDatabase<{ id: string }>(
        db.url,
        'select application_id as id from webhooks.deleted_applications order by 1',
      )
    ).map((r) => r.id);

  beforeAll(async () => {
    a = await db.open();
    b = await db.open();
  });
  afterAll(async () => {
    await Promise.all(loops.map((l) => l.stop()));
  });

  it('when a replica restarts more often than the interval, then each start prunes what is past its retention', async () => {
    for (let restart = 0; restart < 3; restart++) {
      const old = await tombstone(2 * TOMBSTONE_MS);
      const fresh = await tombstone(0);
      let passes = 0;
      // An hour's interval: only the pass at start can prune within this test.
      const loop = startPeriodicJob(a, passOf(a), {
        name: 'retention',
        schema: 'webhooks',
        intervalMs: 3_600_000,
        logger,
        ran: (ran) => {
          if (ran) passes += 1;
        },
      });
      await waitFor(() => passes === 1, { what: 'the pass at start' });
      await loop.stop();
      const left = await tombstones();
      expect(left).not.toContain(old);
      expect(left).toContain(fresh);
      expect(await applicationTombstones()).not.toContain(`app_${old}`);
      expect(await applicationTombstones()).toContain(`app_${fresh}`);
    }
  });

  it('when two replicas run it, then one does a pass while the other skips it, and the other prunes at its next tick', async () => {
    const first = await tombstone(2 * TOMBSTONE_MS);
    const runs = { a: 0, b: 0, skippedByB: 0 };
    let active = 0;
    let mostActive = 0;
    /** `pass`, counted in `active` while it runs (and the most at once in `mostActive`). */
    const counted = (pass: () => Promise<void>) => async () => {
      active += 1;
      mostActive = Math.max(mostActive, active);
      try {
        await pass();
      } finally {
        active -= 1;
      }
    };
    let bSkipped!: () => void;
    const skipped = new Promise<void>((resolve) => {
      bSkipped = resolve;
    });
    // Replica A's first pass holds the lock until B has tried and skipped.
    loops.push(
      startPeriodicJob(
        a,
        counted(async () => {
          if (runs.a === 0) await skipped;
          await passOf(a)();
        }),
        { name: 'retention', schema: 'webhooks', intervalMs: 3_600_000, logger, ran: (ran) => ran && (runs.a += 1) },
      ),
    );
    await waitFor(() => active === 1, { what: "replica A's pass under way" });
    loops.push(
      startPeriodicJob(b, counted(passOf(b)), {
        name: 'retention',
        schema: 'webhooks',
        intervalMs: 1000,
        logger,
        ran: (ran) => {
          if (ran) runs.b += 1;
          else {
            runs.skippedByB += 1;
            bSkipped();
          }
        },
      }),
    );
    await waitFor(() => runs.a === 1, { what: "replica A's pass" });
    expect(runs.skippedByB).toBeGreaterThanOrEqual(1);
    expect(await tombstones()).not.toContain(first);

    // A tombstone ages past its retention after A's pass: B's next tick (1 s) prunes it.
    const second = await tombstone(2 * TOMBSTONE_MS);
    await waitFor(async () => !(await tombstones()).includes(second), { what: "replica B's pass", timeoutMs: 15_000 });
    expect(runs.b).toBeGreaterThanOrEqual(1);
    expect(runs.a).toBe(1);
    expect(mostActive).toBe(1);
  });

  it('when a pass runs with a retention of a day, then every table loses its rows past it and keeps the fresh ones', async () => {
    const seed = async (age: string, tag: string) => {
      const at = `now() - interval '${age}'`;
      await queryDatabase(
        db.url,
        `insert into webhooks.subscriptions (id, account_id, event, resource, target_url) values ('sub_${tag}', 1, 'cdrCreated', 'all', 'https://example.com') on conflict do nothing;
         insert into webhooks.delivery_bodies (message_id, target, body, size, encoding, created_at) values ('m_${tag}', 'sub_${tag}', '\\x00', 1, 'deflate', ${at});
         insert into webhooks.delivery_rollups (target, width, start, attempts, succeeded, retrying, failed, cancelled, latency)
           values ('sub_${tag}', 60, date_bin('1 minute', ${at}, timestamptz 'epoch'), 1, 1, 0, 0, 0, '{}');
         insert into webhooks.recovery_tasks (id, subscription_id, account_id, since, until, total, created_at, completed_at)
           values ('rec_${tag}', 'sub_${tag}', 1, ${at}, ${at}, 1, ${at}, ${at});
         insert into webhooks.resends (id, kind, subscription_id, account_id, message_id, event, original_seq, trigger, created_at)
           values ('rs_${tag}', 'notification', 'sub_${tag}', 1, 'm_${tag}', 'cdrCreated', 1, 'resend', ${at});
         insert into webhooks.test_sends (subscription_id, sent_at) values ('sub_${tag}', ${at});
         insert into webhooks.audit_events (account_id, at, actor_type, actor_id, action, target, outcome) values (1, ${at}, 'key', 'k', 'test', '${tag}', 'success');
         insert into webhooks.idempotency_keys (account_id, key, request_hash, method, response, created_at) values (1, '${tag}', 'h', 'm', '{}', ${at});
         insert into webhooks.session_signals (seq, session_id, at, value, status) values (${tag === 'old' ? 1 : 2}, 'ses_${tag}', ${at}, 'v', 'QUEUED');
         insert into webhooks.session_rollups (application_id, account_id, minute, answered) values ('app_${tag}', 1, date_bin('1 minute', ${at}, timestamptz 'epoch'), 1);
         insert into webhooks.usage_rollups (account_id, application_id, category, day, count) values (1, 'app_${tag}', 'sessions', ((${at}) at time zone 'UTC')::date, 1);`,
      );
    };
    // Kept bodies live in daily partitions: the old day's is made as a late body's would be.
    await ensurePartitionFor(a.em, 'webhooks', 'delivery_bodies', [new Date(Date.now() - 9 * 86_400_000), new Date()]);
    await seed('9 days', 'old');
    await seed('1 minute', 'new');
    // The service's passes (app.ts): records and what goes with them, audit, keys, sessions.
    await dropExpiredDeliveries(a, 'webhooks', 1);
    await pruneDeliveries(a.em.fork(), 'webhooks', 1, TOMBSTONE_MS);
    await pruneAudit(a.em.fork(), 1);
    await new IdempotencyStore(poolOf(a.em), 'webhooks').prune();
    await keepSessionsOnce({ orm: a, schema: 'webhooks' }, 1);
    await pruneUsage(a.em.fork(), 'webhooks', usageCutoff(1));
    const tables: Record<string, string> = {
      delivery_bodies: 'message_id',
      delivery_rollups: 'target',
      recovery_tasks: 'id',
      resends: 'id',
      test_sends: 'subscription_id',
      audit_events: 'target',
      idempotency_keys: 'key',
      session_signals: 'session_id',
      session_rollups: 'application_id',
      usage_rollups: 'application_id',
    };
    for (const [table, column] of Object.entries(tables)) {
      const rows = await queryDatabase<{ v: string }>(db.url, `select ${column} as v from webhooks.${table}`);
      expect(
        rows.map((r) => r.v.replace(/^[a-z]+_/, '')),
        table,
      ).toEqual(['new']);
    }
  });
});
