import { describe, expect, it } from 'vitest';
import { callBatcher, webhooksClient } from '@switchboard/proto';
import { queryDatabase } from '../../../test/support';
import { codeOf, useHarness, type Harness } from './harness';

let h: Harness;
useHarness((s) => (h = s));

const body = { event: 'cdrCreated', resource: 'call', targetUrl: 'https://example.com/hook' };

async function countRows(where: string, params: unknown[]): Promise<number> {
  const [r] = await queryDatabase<{ n: number }>(
    h.db.url,
    `select count(*)::int as n from webhooks.subscriptions where ${where}`,
    params,
  );
  return r!.n;
}

function tally(codes: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const c of codes) counts[c] = (counts[c] ?? 0) + 1;
  return counts;
}

describe('limits of docs/api-rules.md#limits under concurrency', () => {
  it('when 50 account-level creates run at once, then exactly 10 succeed, 40 get limit_exceeded, and 10 rows exist', async () => {
    const acct = await h.newAccount();
    const codes = await Promise.all(
      Array.from({ length: 50 }, () => codeOf(h.webhooks.client.createSubscription({ accountId: acct, ...body }))),
    );
    expect(tally(codes)).toEqual({ ok: 10, limit_exceeded: 40 });
    expect(await countRows('account_id = $1 and application_id is null', [acct])).toBe(10);
  });

  it('when 50 creates for one application run at once, then exactly 10 succeed and 10 rows exist', async () => {
    const acct = await h.newAccount();
    const app = await h.newApplication(acct);
    const codes = await Promise.all(
      Array.from({ length: 50 }, () =>
        codeOf(h.webhooks.client.createSubscription({ accountId: acct, applicationId: app, ...body })),
      ),
    );
    expect(tally(codes)).toEqual({ ok: 10, limit_exceeded: 40 });
    expect(await countRows('application_id = $1', [app])).toBe(10);
  });

  it('when 60 creates for three scopes arrive in batches (one transaction per batch), then each scope ends with exactly 10 and every other create is limit_exceeded', async () => {
    const acct = await h.newAccount();
    const [app1, app2] = await Promise.all([h.newApplication(acct), h.newApplication(acct)]);
    const address = `127.0.0.1:${h.webhooks.grpcPort}`;
    // One call or batch out at a time: the calls made meanwhile leave together.
    const batch = callBatcher(address, { target: 'webhooks', maxInFlight: 1 });
    const client = webhooksClient(address, { batch });
    try {
      // One create per application first: the service knows they are the account's before the batches come.
      for (const app of [app1, app2])
        expect(await codeOf(client.createSubscription({ accountId: acct, applicationId: app, ...body }))).toBe('ok');
      const scopes = [undefined, app1, app2];
      const codes = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          codeOf(
            client.createSubscription({
              accountId: acct,
              ...(scopes[i % 3] ? { applicationId: scopes[i % 3] } : {}),
              ...body,
            }),
          ),
        ),
      );
      expect(tally(codes)).toEqual({ ok: 28, limit_exceeded: 32 });
      expect(await countRows('account_id = $1 and application_id is null', [acct])).toBe(10);
      expect(await countRows('application_id = $1', [app1])).toBe(10);
      expect(await countRows('application_id = $1', [app2])).toBe(10);
    } finally {
      client.close();
      batch.close();
    }
  });

  it('when creates race on two replicas of the service, then the limit still holds', async () => {
    const second = await h.startWebhooks();
    try {
      const acct = await h.newAccount();
      const clients = [h.webhooks.client, second.client];
      const codes = await Promise.all(
        Array.from({ length: 40 }, (_, i) => codeOf(clients[i % 2]!.createSubscription({ accountId: acct, ...body }))),
      );
      expect(tally(codes)).toEqual({ ok: 10, limit_exceeded: 30 });
      expect(await countRows('account_id = $1 and application_id is null', [acct])).toBe(10);
    } finally {
      await second.stop();
    }
  });

  it('when the account-level limit is reached, then application-level subscriptions of the same account are not affected, and vice versa', async () => {
    const acct = await h.newAccount();
    const app = await h.newApplication(acct);
    for (let i = 0; i < 10; i++) await h.webhooks.client.createSubscription({ accountId: acct, ...body });
    expect(await codeOf(h.webhooks.client.createSubscription({ accountId: acct, ...body }))).toBe('limit_exceeded');
    for (let i = 0; i < 10; i++)
      await h.webhooks.client.createSubscription({ accountId: acct, applicationId: app, ...body });
    expect(await codeOf(h.webhooks.client.createSubscription({ accountId: acct, applicationId: app, ...body }))).toBe(
      'limit_exceeded',
    );
    // Another application of the same account has its own 10.
    const app2 = await h.newApplication(acct);
    expect(await codeOf(h.webhooks.client.createSubscription({ accountId: acct, applicationId: app2, ...body }))).toBe(
      'ok',
    );
  });

  it('when a subscription is deleted at the limit, then one more can be created', async () => {
    const acct = await h.newAccount();
    const ids: string[] = [];
    for (let i = 0; i < 10; i++)
      ids.push((await h.webhooks.client.createSubscription({ accountId: acct, ...body })).subscription!.id);
    expect(await codeOf(h.webhooks.client.createSubscription({ accountId: acct, ...body }))).toBe('limit_exceeded');
    await h.webhooks.client.deleteSubscription({ accountId: acct, id: ids[0]! });
    expect(await codeOf(h.webhooks.client.createSubscription({ accountId: acct, ...body }))).toBe('ok');
  });
});
