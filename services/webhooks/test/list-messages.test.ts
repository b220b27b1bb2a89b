// A list's messages are made from the rows as read (timestamps from their text, no Date): each item
// must be the message GetSubscription answers for that subscription, alone or in a batch of lists.
import { describe, expect, it } from 'vitest';
import { callBatcher, webhooksClient } from '@switchboard/proto';
import { queryDatabase } from '../../../test/support';
import { useHarness, type Harness } from './harness';

let h: Harness;

useHarness((s) => (h = s));

describe('list messages', () => {
  it('when subscriptions with every kind of field, health and timestamp are listed alone and in a batch, then each item is the message of GetSubscription', async () => {
    const accountId = await h.newAccount();
    const app = await h.newApplication(accountId);
    const client = h.webhooks.client;
    const base = { accountId, event: 'smsdlr', resource: 'sms', targetUrl: 'https://example.com/hook' };
    await client.createSubscription({ ...base, applicationId: '', name: 'plain' });
    await client.createSubscription({
      ...base,
      applicationId: '',
      name: 'everything ☎',
      payloadJson: '{"team":"ops","n":[1,2.5]}',
      headersJson: '{"Authorization":"Bearer x","X-Tenant":"t1"}',
      enabled: false,
    });
    await client.createSubscription({ ...base, applicationId: '' });
    await client.createSubscription({ ...base, applicationId: app, name: 'of the application' });
    // Health as deliveries leave it: an attempt with microseconds, a failure streak, a disabled one.
    await queryDatabase(
      h.databaseUrl,
      `update webhooks.subscriptions set created_at = timestamptz '2024-02-29 23:59:59.999999+00', last_attempt_at = timestamptz '2026-01-02 03:04:05.5+00',
         last_status = 503, consecutive_failures = 7, first_failure_at = now(), disabled_reason = 'failing' where account_id = $1 and name = 'plain'`,
      [accountId],
    );
    const { subscriptions } = await client.listSubscriptions({ accountId, applicationId: '', limit: 10, cursor: '' });
    expect(subscriptions.map((s) => s.name)).toEqual(['plain', 'everything ☎', undefined]);
    for (const s of subscriptions)
      expect(s).toEqual((await client.getSubscription({ accountId, id: s.id, applicationId: '' })).subscription);
    expect(subscriptions[0]).toMatchObject({
      createdAt: '2024-02-29T23:59:59.999Z',
      lastAttemptAt: '2026-01-02T03:04:05.500Z',
      lastStatus: 503,
      consecutiveFailures: 7,
      disabledReason: 'failing',
    });
    expect(subscriptions[1]!.headers).toEqual({ Authorization: '***', 'X-Tenant': '***' });
    expect(subscriptions[2]).not.toHaveProperty('lastAttemptAt');
    const ofApp = await client.listSubscriptions({ accountId, applicationId: app, limit: 10, cursor: '' });
    expect(ofApp.subscriptions).toEqual([
      (await client.getSubscription({ accountId, id: ofApp.subscriptions[0]!.id, applicationId: app })).subscription,
    ]);

    // The same pages asked for together (one batch, one statement) and page by page with a cursor.
    const address = `127.0.0.1:${h.webhooks.grpcPort}`;
    const batch = callBatcher(address, { target: 'webhooks', maxInFlight: 1 });
    const batched = webhooksClient(address, { batch });
    try {
      const [whole, first, other] = await Promise.all([
        batched.listSubscriptions({ accountId, applicationId: '', limit: 10, cursor: '' }),
        batched.listSubscriptions({ accountId, applicationId: '', limit: 2, cursor: '' }),
        batched.listSubscriptions({ accountId: '987654321987', applicationId: '', limit: 10, cursor: '' }),
      ]);
      expect(whole.subscriptions).toEqual(subscriptions);
      expect(first.subscriptions).toEqual(subscriptions.slice(0, 2));
      expect(other.subscriptions).toEqual([]);
      const second = await batched.listSubscriptions({
        accountId,
        applicationId: '',
        limit: 2,
        cursor: first.nextCursor,
      });
      expect(second.subscriptions).toEqual(subscriptions.slice(2));
      expect(second.nextCursor).toBe('');
    } finally {
      batched.close();
      batch.close();
    }
  });
});
