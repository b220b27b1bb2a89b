// Deleting an account leaves nothing of it in the database once the deletion has completed: the
// stack's database is dumped (pg_dump) and searched for the account's names, ids, secrets and
// custom header values, its alert and usage triggers and its usage counts, including what arrives after the deletion (a dispatcher's late attempt
// records, with bodies, for its subscription and its application's sessions).
import { DELIVERIES_STREAM, RECORDS_CONSUMER, RECORDS_SUBJECT, SESSION_RECORDS_CONSUMER } from '@switchboard/contracts';
import { beforeAll, expect, it } from 'vitest';
import { deleteAccount } from '../../applications/src/accounts/delete-account';
import {
  cdrEvent,
  dumpDatabase,
  queryDatabase,
  randomName,
  useDeliveryStack,
  waitFor,
  type JsonBody,
  type Receiver,
  type Services,
} from '../../../test/support';

let stack: Services<{ gateway: true; webhooks: true }>;
let rx: Receiver;

useDeliveryStack(
  {
    gateway: true,
    dispatcherEnv: {
      DELIVERY_RETRY_SCHEDULE: '100ms',
      RECORD_FLUSH_INTERVAL: '20ms',
      JETSTREAM_ACK_WAIT: '8s',
      DELIVERY_TIMEOUT_MS: '2000',
    },
  },
  (f) => ({ stack, rx } = f),
);
beforeAll(async () => {
  await stack.startDispatcher();
}, 60_000);

const json = async (res: Response) => (await res.json()) as Record<string, JsonBody>;
const idOf = (href: string) => href.split('/').pop()!;

const dump = () => dumpDatabase(stack.databaseUrl);

it('when an account is deleted, then once its deletion completes nothing of it is left in the database, late attempt records included', async () => {
  const acct = await stack.createAccount('erased');
  const headerValue = `hdr-${randomName('v')}`;
  const target = `/erased/${randomName('t')}`;
  rx.on(target, () => 200);
  // An application with a session delivered to it, a subscription (custom header) with a delivery,
  // a resend, and idempotent requests whose stored answers hold secrets.
  const app = await json(
    await stack.request(
      acct,
      'POST',
      '/v1/applications',
      { name: `app-${acct.username}`, voiceUrl: rx.url(`${target}/voice`) },
      { 'Idempotency-Key': randomName('k') },
    ),
  );
  const appId = idOf(app.href);
  const appSecret = (await json(await stack.request(acct, 'GET', `/v1/applications/${appId}/secret`))).secret as string;
  const created = await stack.request(
    acct,
    'POST',
    '/v1/webhooks',
    { event: 'cdrCreated', resource: 'all', targetUrl: rx.url(target), headers: { 'X-Api-Key': headerValue } },
    { 'Idempotency-Key': randomName('k') },
  );
  expect(created.status).toBe(200);
  const sub = await json(created);
  const subId = idOf(sub.href);
  // An alert trigger of its application and a usage trigger: they go with the account.
  const alertTrigger = await json(
    await stack.request(acct, 'POST', '/v1/alert-triggers', {
      code: '*',
      applicationId: appId,
      threshold: 3,
      window: '5m',
    }),
  );
  const usageTrigger = await json(
    await stack.request(acct, 'POST', '/v1/usage-triggers', { category: 'sessions', threshold: 3, recurring: 'daily' }),
  );
  const sessionId = randomName('sess');
  await stack.publish('sessions.new', {
    applicationId: appId,
    session: {
      id: sessionId,
      accountId: acct.id,
      from: { id: '+14155550100', channel: 'VOICE' },
      to: { id: '+14155550199', channel: 'VOICE' },
    },
  });
  await stack.publish('cdr.created', cdrEvent(acct.id, { data: { n: 1 } }));
  const list = () => stack.listAll<Record<string, JsonBody>>(acct, `/v1/webhooks/${subId}/deliveries`);
  await waitFor(async () => (await list()).length === 1, { what: 'the delivery recorded' });
  await waitFor(async () => (await stack.listAll(acct, `/v1/applications/${appId}/deliveries`)).length >= 1, {
    what: 'the session recorded',
  });
  const [delivery] = await list();
  expect((await stack.request(acct, 'POST', `/v1/webhooks/${subId}/deliveries/${delivery!.id}/resend`)).status).toBe(
    202,
  );
  await waitFor(() => rx.at(target).length === 2, { what: 'the resend delivered' });
  const before = dump();
  const traces = [
    acct.username,
    appId,
    subId,
    sub.secret as string,
    appSecret,
    headerValue,
    target,
    sessionId,
    alertTrigger.id as string,
    usageTrigger.id as string,
  ];
  // Its names and ids are in the database before the deletion (its secrets and header values are
  // sealed, and test/security/dump.test.ts checks they never appear in clear).
  for (const t of [acct.username, appId, subId, target, alertTrigger.id as string, usageTrigger.id as string])
    expect(before, t).toContain(t);

  await deleteAccount(stack.applications.app.orm.em.fork(), acct.username);
  // The webhooks service has handled the deletion: the account's subscriptions are gone.
  await waitFor(
    async () =>
      (await stack.webhooks.client.listSubscriptions({ accountId: acct.id, applicationId: '', limit: 10, cursor: '' }))
        .subscriptions.length === 0,
    { what: 'subscriptions removed' },
  );
  // A dispatcher's records that were still on their way arrive now, with a body.
  const late = (kind: 'notification' | 'session') => ({
    id: randomName('dlv'),
    messageId: randomName('msg'),
    kind,
    subscriptionId: kind === 'notification' ? subId : '',
    applicationId: appId,
    accountId: acct.id,
    event: kind === 'notification' ? 'cdrCreated' : 'session',
    targetUrl: rx.url(kind === 'notification' ? target : `${target}/voice`),
    attempt: 1,
    statusCode: 200,
    durationMs: 5,
    outcome: 'succeeded',
    createdAt: new Date().toISOString(),
    body: JSON.stringify({ late: headerValue }),
    trigger: 'event',
  });
  // Published as a dispatcher does; stored (or dropped) once the records consumer has acknowledged it.
  await stack.publish(RECORDS_SUBJECT, { attempts: [late('notification'), late('session')], disable: [] });
  await waitFor(
    async () => {
      const i = await stack.bus.jsm.consumers.info(DELIVERIES_STREAM, RECORDS_CONSUMER);
      return i.num_pending + i.num_ack_pending === 0;
    },
    { what: 'late records handled', timeoutMs: 20_000 },
  );
  // The deletion is complete when the service has written its tombstones (the account's and its
  // application's deletions handled), both record consumers have nothing left, and the sweeper's
  // queue of purges is empty: nothing more of the account is on its way in or out.
  await waitFor(
    async () => {
      const [progress] = await queryDatabase<{ tombstones: number; purges: number }>(
        stack.databaseUrl,
        `select (select count(*) from webhooks.deleted_accounts where account_id = $1)::int
                + (select count(*) from webhooks.deleted_applications where application_id = $2)::int as tombstones,
                (select count(*) from webhooks.delivery_purges)::int as purges`,
        [acct.id, appId],
      );
      if (progress!.tombstones !== 2 || progress!.purges !== 0) return false;
      for (const consumer of [RECORDS_CONSUMER, SESSION_RECORDS_CONSUMER]) {
        const i = await stack.bus.jsm.consumers.info(DELIVERIES_STREAM, consumer);
        if (i.num_pending + i.num_ack_pending !== 0) return false;
      }
      return true;
    },
    { what: 'the deletion handled and its records swept', timeoutMs: 20_000 },
  );
  // The tombstones of the deleted application and account (bare ids, no data; pruned after 7 days)
  // refuse writes still in flight: they are the only thing left.
  const full = dump();
  const tombstones = /^COPY webhooks\.deleted_(applications|accounts) [^\n]*\n[\s\S]*?^\\\.$/gm;
  expect(full.match(tombstones)?.join('\n')).toContain(appId);
  const after = full.replace(tombstones, '');
  const left = (t: string) =>
    after
      .split('\n')
      .filter((l) => l.includes(t) || /^COPY /.test(l))
      .filter((l, i, all) => !/^COPY /.test(l) || (all[i + 1] !== undefined && !/^COPY /.test(all[i + 1]!)));
  for (const t of traces)
    expect(after.includes(t), `${t} is still in the database:\n${left(t).join('\n')}`).toBe(false);
}, 90_000);
