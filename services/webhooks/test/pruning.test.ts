// Pruning runs on every replica, at start and then every PRUNE_INTERVAL_MS, so what is past its
// retention goes even when a replica never lives as long as the interval, and with one replica or
// several (docs/operations.md#tables).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryDatabase, startServices, waitFor, type Services } from '../../../test/support';

let stack: Services<{ webhooks: true }>;
let account: string;

beforeAll(async () => {
  // An interval longer than the test: only the prune at start can do the work.
  stack = await startServices({ webhooks: true, env: { PRUNE_INTERVAL_MS: '3600000' } });
  account = await stack.newAccount();
});
afterAll(async () => stack?.stop());

const q = (text: string, params: unknown[] = []) => queryDatabase(stack.databaseUrl, text, params);

/** Rows past their retention in every table the two services prune, and fresh ones beside them. */
async function seedExpired(tag: string): Promise<void> {
  for (const schema of ['webhooks', 'applications']) {
    await q(
      `insert into ${schema}.idempotency_keys (account_id, key, request_hash, method, response, created_at)
       values ($1, $2, 'h', 'm', '{}', now() - interval '3 days'), ($1, $3, 'h', 'm', '{}', now())`,
      [account, `old-${tag}`, `new-${tag}`],
    );
    await q(
      `insert into ${schema}.audit_events (account_id, at, actor_type, actor_id, action, outcome)
       values ($1, now() - interval '400 days', 'password', 'me', 'old.${tag}', 'success'), ($1, now(), 'password', 'me', 'new.${tag}', 'success')`,
      [account],
    );
  }
  await q(
    `insert into webhooks.deleted_accounts (account_id, deleted_at) values ($1, now() - interval '30 days'), ($2, now())`,
    [`9${Date.now() % 1e9}1`, `9${Date.now() % 1e9}2`],
  );
  await q(
    `insert into applications.session_launch_budgets (account_id, tokens, granted, updated_at)
     values ($1, 1, true, now() - interval '2 days') on conflict (account_id) do update set updated_at = excluded.updated_at`,
    [account],
  );
}

const left = async () => ({
  keys: (
    await q(`select key from webhooks.idempotency_keys union all select key from applications.idempotency_keys`)
  ).map((r) => String(r.key)),
  audit: (
    await q(`select action from webhooks.audit_events union all select action from applications.audit_events`)
  ).map((r) => String(r.action)),
  oldTombstones: (await q(`select 1 from webhooks.deleted_accounts where deleted_at < now() - interval '8 days'`))
    .length,
  budgets: (await q(`select 1 from applications.session_launch_budgets where account_id = $1`, [account])).length,
});

describe('pruning', () => {
  it('when a webhooks replica starts, then it prunes at once what is past its retention and keeps the rest', async () => {
    await seedExpired('a');
    await stack.startWebhooks({ PRUNE_INTERVAL_MS: '3600000' });
    // The applications service pruned when it started, before these rows: only the new webhooks
    // replica can remove the webhooks service's.
    const webhooksKeys = async () => (await q(`select key from webhooks.idempotency_keys`)).map((r) => String(r.key));
    const after = await waitFor(
      async () => {
        const l = await left();
        const keys = await webhooksKeys();
        return l.oldTombstones === 0 && !keys.includes('old-a') && { ...l, keys };
      },
      { what: 'the webhooks tables pruned at start' },
    );
    expect(after.keys).toContain('new-a');
    expect((await q(`select action from webhooks.audit_events`)).map((r) => r.action)).toEqual(['new.a']);
    // Not the applications service's: its next round is an hour away.
    expect((await q(`select key from applications.idempotency_keys`)).map((r) => r.key)).toContain('old-a');
  });

  it('when several replicas prune every second, then each table ends pruned and nothing fails', async () => {
    await seedExpired('b');
    await Promise.all([
      stack.startWebhooks({ PRUNE_INTERVAL_MS: '1000' }),
      stack.startWebhooks({ PRUNE_INTERVAL_MS: '1000' }),
    ]);
    const applications = await import('@switchboard/applications');
    const replica = await applications.createApp(
      applications.loadConfig({ ...stack.env, GRPC_PORT: '0', OPS_PORT: '0', PRUNE_INTERVAL_MS: '1000' }),
    );
    await replica.start();
    try {
      const after = await waitFor(
        async () => {
          const l = await left();
          return (
            l.oldTombstones === 0 &&
            l.budgets === 0 &&
            !l.keys.some((k) => k.startsWith('old-')) &&
            !l.audit.some((a) => a.startsWith('old.')) &&
            l
          );
        },
        { what: 'every table pruned' },
      );
      expect(after.keys.filter((k) => k.startsWith('new-'))).toHaveLength(4);
    } finally {
      await replica.stop();
    }
  });
});
