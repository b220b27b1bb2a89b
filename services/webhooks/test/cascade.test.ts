// applications.deleted -> the application's subscriptions go, also when this service was down at the time.
import { describe, expect, it } from 'vitest';
import { publishJson } from '@switchboard/messaging';
import { STREAMS, SUBJECTS } from '@switchboard/events';
import { queryDatabase, waitFor } from '../../../test/support';
import { APPLICATIONS_DELETED_DURABLE } from '../src/events/applications-deleted';
import { codeOf, useHarness, storeRecords, watch, type Harness } from './harness';

let h: Harness;
useHarness((s) => (h = s));

const body = { event: 'smsdlr', resource: 'sms', targetUrl: 'https://example.com/hook' };

const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  queryDatabase<T>(h.db.url, text, params);

async function exists(accountId: string, id: string): Promise<boolean> {
  return (await codeOf(h.webhooks.client.getSubscription({ accountId, id }))) === 'ok';
}

describe('cascade on application delete', () => {
  it('when an application is deleted, then its subscriptions, secrets and deliveries go; other subscriptions stay', async () => {
    const acct = await h.newAccount();
    const [app, keep] = await Promise.all([h.newApplication(acct), h.newApplication(acct)]);
    const doomed = await Promise.all(
      [1, 2, 3].map(() => h.webhooks.client.createSubscription({ accountId: acct, applicationId: app, ...body })),
    );
    const kept = await h.webhooks.client.createSubscription({ accountId: acct, applicationId: keep, ...body });
    const accountLevel = await h.webhooks.client.createSubscription({ accountId: acct, ...body });
    const first = doomed[0]!.subscription!.id;
    await storeRecords(h, {
      attempts: [
        {
          messageId: 'm',
          kind: 'notification',
          subscriptionId: first,
          event: 'smsdlr',
          targetUrl: 'https://example.com/hook',
          attempt: 1,
          statusCode: 200,
          durationMs: 1,
          outcome: 'succeeded',
        },
        {
          messageId: 's',
          kind: 'session',
          applicationId: app,
          accountId: acct,
          event: 'session',
          targetUrl: 'https://example.com/voice',
          attempt: 1,
          statusCode: 200,
          durationMs: 1,
          outcome: 'succeeded',
        },
      ],
    });
    const w = watch(h.bus, SUBJECTS.webhooksChanged);

    await h.applications.client.deleteApplication({ accountId: acct, id: app });

    await waitFor(async () => !(await exists(acct, first)), { what: 'cascade', timeoutMs: 15_000 });
    for (const d of doomed) expect(await exists(acct, d.subscription!.id)).toBe(false);
    expect(await exists(acct, kept.subscription!.id)).toBe(true);
    expect(await exists(acct, accountLevel.subscription!.id)).toBe(true);
    expect(
      await sql(`select 1 from webhooks.subscription_secrets where subscription_id = any($1)`, [
        doomed.map((d) => d.subscription!.id),
      ]),
    ).toEqual([]);
    // Delivery records go in the background (the sweeper), subscription and session records alike.
    await waitFor(
      async () =>
        (await sql(`select 1 from webhooks.deliveries where subscription_id = $1 or application_id = $2`, [first, app]))
          .length === 0,
      {
        what: 'delivery records swept',
      },
    );
    // The dispatcher hears about every removed subscription.
    await waitFor(() => doomed.every((d) => w.messages.some((m) => m.subscriptionId === d.subscription!.id)), {
      what: 'webhooks.changed for each',
    });
    w.stop();
    // A create for the deleted application is refused.
    expect(await codeOf(h.webhooks.client.createSubscription({ accountId: acct, applicationId: app, ...body }))).toBe(
      'not_found',
    );
  });

  it('when an application is deleted, then every replica stops answering for it at once, not only the one that handled the deletion', async () => {
    const second = await h.startWebhooks();
    try {
      const acct = await h.newAccount();
      const app = await h.newApplication(acct);
      // Both replicas have confirmed the application's owner (and keep the answer).
      for (const c of [h.webhooks.client, second.client])
        expect(await codeOf(c.listSubscriptions({ accountId: acct, applicationId: app }))).toBe('ok');
      await h.applications.client.deleteApplication({ accountId: acct, id: app });
      for (const c of [h.webhooks.client, second.client]) {
        await waitFor(
          async () => (await codeOf(c.listSubscriptions({ accountId: acct, applicationId: app }))) === 'not_found',
          { what: 'deleted application unknown', timeoutMs: 10_000 },
        );
      }
    } finally {
      await second.stop();
    }
  });

  it('when the webhooks service was down while an application was deleted, then it removes the subscriptions when it starts', async () => {
    const acct = await h.newAccount();
    const app = await h.newApplication(acct);
    const ids = await Promise.all(
      [1, 2].map(
        async () =>
          (await h.webhooks.client.createSubscription({ accountId: acct, applicationId: app, ...body })).subscription!
            .id,
      ),
    );

    await h.webhooks.stop();
    const before = (await h.bus.jsm.consumers.info(STREAMS.internal.name, APPLICATIONS_DELETED_DURABLE)).num_pending;
    await h.applications.client.deleteApplication({ accountId: acct, id: app });
    // The event is stored in JetStream, waiting for the durable consumer.
    await waitFor(
      async () =>
        (await h.bus.jsm.consumers.info(STREAMS.internal.name, APPLICATIONS_DELETED_DURABLE)).num_pending > before,
      {
        what: 'applications.deleted stored',
        timeoutMs: 15_000,
      },
    );
    expect(await sql(`select id from webhooks.subscriptions where application_id = $1`, [app])).toHaveLength(2);

    h.webhooks = await h.startWebhooks();
    await waitFor(
      async () => (await sql(`select id from webhooks.subscriptions where application_id = $1`, [app])).length === 0,
      {
        what: 'catch-up',
        timeoutMs: 15_000,
      },
    );
    for (const id of ids) expect(await exists(acct, id)).toBe(false);
  });

  it('when a deletion is processed while a create for that application is in flight, then the create cannot resurrect it', async () => {
    // The applications service still knows the application, but its deletion was already processed here
    // (the tombstone a create checks under the same lock as the cascade).
    const acct = await h.newAccount();
    const app = await h.newApplication(acct);
    await publishJson(h.bus.js, SUBJECTS.applicationDeleted, {
      applicationId: app,
      accountId: acct,
      deletedAt: new Date().toISOString(),
    });
    await waitFor(
      async () =>
        (await sql(`select 1 from webhooks.deleted_applications where application_id = $1`, [app])).length === 1,
      { what: 'tombstone' },
    );
    expect(await codeOf(h.webhooks.client.createSubscription({ accountId: acct, applicationId: app, ...body }))).toBe(
      'not_found',
    );
  });

  it('when a malformed applications.deleted event arrives, then it is dropped and later events are still processed', async () => {
    const acct = await h.newAccount();
    const app = await h.newApplication(acct);
    const id = (await h.webhooks.client.createSubscription({ accountId: acct, applicationId: app, ...body }))
      .subscription!.id;
    await h.bus.js.publish(SUBJECTS.applicationDeleted, 'not json');
    await publishJson(h.bus.js, SUBJECTS.applicationDeleted, { nope: true });
    await h.applications.client.deleteApplication({ accountId: acct, id: app });
    await waitFor(async () => !(await exists(acct, id)), { what: 'cascade after poison messages', timeoutMs: 15_000 });
    const metrics = await (await fetch(`http://127.0.0.1:${h.webhooks.opsPort}/metrics`)).text();
    expect(metrics).toMatch(/webhooks_applications_deleted_events_total\{outcome="rejected"\} 2/);
  });

  it("when accounts.deleted arrives, then all the account's subscriptions go, a later account-level create is refused, and other accounts keep theirs", async () => {
    const [acct, other] = await Promise.all([h.newAccount(), h.newAccount()]);
    const app = await h.newApplication(acct);
    const ids = [
      (await h.webhooks.client.createSubscription({ accountId: acct, ...body })).subscription!.id,
      (await h.webhooks.client.createSubscription({ accountId: acct, applicationId: app, ...body })).subscription!.id,
    ];
    const kept = (await h.webhooks.client.createSubscription({ accountId: other, ...body })).subscription!.id;
    await h.bus.js.publish(SUBJECTS.accountDeleted, 'not json');
    await publishJson(h.bus.js, SUBJECTS.accountDeleted, { accountId: acct, deletedAt: new Date().toISOString() });
    await waitFor(async () => !(await exists(acct, ids[0]!)) && !(await exists(acct, ids[1]!)), {
      what: 'account cascade',
      timeoutMs: 15_000,
    });
    expect(await exists(other, kept)).toBe(true);
    expect(await codeOf(h.webhooks.client.createSubscription({ accountId: acct, ...body }))).toBe('not_found');
    const metrics = await (await fetch(`http://127.0.0.1:${h.webhooks.opsPort}/metrics`)).text();
    expect(metrics).toMatch(/webhooks_accounts_deleted_events_total\{outcome="rejected"\} 1/);
  });
});
