// The retention pass of the webhooks service (orm's startPeriodicJob), on a real Postgres: it runs
// at start, so a process restarted more often than PRUNE_INTERVAL_MS still prunes; with two
// replicas one does a pass while the other skips it, and the other takes over at its next tick.
// What it prunes here: tombstones of deleted accounts and applications past TOMBSTONE_RETENTION_MS,
// test sends past an hour, and audit entries and idempotency keys past their retention.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MikroORM } from '@mikro-orm/postgresql';
import { initOrm, migrate, pruneAudit, startPeriodicJob } from '@switchboard/orm';
import { createLogger, SecretBox, type BackgroundLoop } from '@switchboard/platform';
import { createTestDatabase, queryDatabase, waitFor, type TestDatabase } from '../../../test/support';
import { ENTITIES } from '../src/db/entities';
import { MIGRATIONS } from '../src/db/migrations';
import { pruneDeliveries } from '../src/deliveries/repository';

const logger = createLogger('test', 'silent');
const TOMBSTONE_MS = 60_000;

async function openOrm(url: string, secrets: SecretBox): Promise<MikroORM> {
  return initOrm({
    entities: ENTITIES,
    migrations: MIGRATIONS,
    databaseUrl: url,
    schema: 'webhooks',
    poolMax: 2,
    logger,
    secrets,
  });
}

/** A replica's retention pass over the tombstones, test sends and audit entries. */
const passOf = (orm: MikroORM) => async () => {
  await pruneDeliveries(orm.em.fork(), 'webhooks', 30, TOMBSTONE_MS);
  await pruneAudit(orm.em.fork(), 90);
};

describe('the retention pass', () => {
  let db: TestDatabase;
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
    db = await createTestDatabase();
    const secrets = SecretBox.fromText(randomBytes(32).toString('base64'));
    a = await openOrm(db.url, secrets);
    await migrate(a, 'webhooks', logger);
    b = await openOrm(db.url, secrets);
  });
  afterAll(async () => {
    await Promise.all(loops.map((l) => l.stop()));
    await a?.close(true);
    await b?.close(true);
    await db?.drop();
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
    let bSkipped!: () => void;
    const skipped = new Promise<void>((resolve) => {
      bSkipped = resolve;
    });
    // Replica A's first pass holds the lock until B has tried and skipped.
    loops.push(
      startPeriodicJob(
        a,
        async () => {
          active += 1;
          mostActive = Math.max(mostActive, active);
          try {
            if (runs.a === 0) await skipped;
            await passOf(a)();
          } finally {
            active -= 1;
          }
        },
        { name: 'retention', schema: 'webhooks', intervalMs: 3_600_000, logger, ran: (ran) => ran && (runs.a += 1) },
      ),
    );
    await waitFor(() => active === 1, { what: "replica A's pass under way" });
    loops.push(
      startPeriodicJob(
        b,
        async () => {
          active += 1;
          mostActive = Math.max(mostActive, active);
          try {
            await passOf(b)();
          } finally {
            active -= 1;
          }
        },
        {
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
        },
      ),
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
});
