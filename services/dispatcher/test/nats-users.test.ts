// The NATS users and permissions of the prod overlay (deploy/k8s/overlays/prod/nats-cluster.conf),
// on a loopback nats-server: anonymous clients are refused, and the applications, webhooks and
// dispatcher services, each connected as its own user, still do their whole job with the
// telephony core's user: notifications, records, resends, test sends, sessions and deletions.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connect } from '@nats-io/transport-node';
import { connectNats, type NatsHandle } from '@switchboard/messaging';
import { createLogger } from '@switchboard/observability';
import { webhooksClient } from '@switchboard/proto';
import { createAccount } from '@switchboard/applications/accounts';
import { deleteAccount } from '../../applications/src/accounts/delete-account';
import { limitsBucketSpec, SharedLimitStore } from '../../gateway/src/shared-limits';
import {
  freePort,
  natsServerBinary,
  randomName,
  startReceiver,
  startServices,
  waitFor,
  type Receiver,
  type RunningDispatcher,
  type Services,
} from '../../../test/support';
import { cdrEvent, TEST_DISPATCHER_ENV } from './harness';

const PASSWORDS = {
  applications: 'pw-applications',
  webhooks: 'pw-webhooks',
  dispatcher: 'pw-dispatcher',
  core: 'pw-core',
  gateway: 'pw-gateway',
};

let h: Services<{ applications: false }>;
let rx: Receiver;
let server: ChildProcess | undefined;
let dir: string;
let url: string;
const stops: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  h = await startServices({ applications: false });
  rx = await startReceiver();
  dir = mkdtempSync(join(tmpdir(), 'sb-nats-users-'));
  const conf = readFileSync(new URL('../../../deploy/k8s/overlays/prod/nats-cluster.conf', import.meta.url), 'utf8');
  const authorization = /^authorization \{[\s\S]*^\}/m.exec(conf)![0];
  const [port, monitor] = [await freePort(), await freePort()];
  writeFileSync(
    join(dir, 'nats.conf'),
    `host: 127.0.0.1\nport: ${port}\nhttp_port: ${monitor}\njetstream { store_dir: "${dir}" }\n${authorization}\n`,
  );
  server = spawn(natsServerBinary(), ['-c', join(dir, 'nats.conf')], {
    stdio: 'ignore',
    env: {
      ...process.env,
      NATS_APPLICATIONS_PASSWORD: PASSWORDS.applications,
      NATS_WEBHOOKS_PASSWORD: PASSWORDS.webhooks,
      NATS_DISPATCHER_PASSWORD: PASSWORDS.dispatcher,
      NATS_CORE_PASSWORD: PASSWORDS.core,
      NATS_GATEWAY_PASSWORD: PASSWORDS.gateway,
    },
  });
  await waitFor(
    async () =>
      (await fetch(`http://127.0.0.1:${monitor}/healthz?js-enabled-only=true`).catch(() => undefined))?.ok === true,
    { what: 'nats-server', timeoutMs: 10_000 },
  );
  url = `nats://127.0.0.1:${port}`;
}, 60_000);
afterAll(async () => {
  for (const s of stops.reverse()) await s().catch(() => undefined);
  server?.kill('SIGTERM');
  await h?.stop();
  await rx?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const as = (user: keyof typeof PASSWORDS) => ({ NATS_URL: url, NATS_USER: user, NATS_PASSWORD: PASSWORDS[user] });

it('when every service connects as its own NATS user, then anonymous clients are refused and notifications, records, resends, test sends, sessions and deletions all work', async () => {
  await expect(connect({ servers: url, waitOnFirstConnect: false, reconnect: false })).rejects.toThrow(
    /authorization/i,
  );

  const base = { ...h.env, GRPC_PORT: '0', OPS_PORT: '0', DELIVERY_ALLOWED_CIDRS: '127.0.0.0/8,::1/128' };
  const apps = await import('@switchboard/applications');
  const a = await apps.createApp(apps.loadConfig({ ...base, ...as('applications') }));
  const aPorts = await a.start();
  stops.push(() => a.stop());
  const hooksMod = await import('@switchboard/webhooks');
  const w = await hooksMod.createApp(
    hooksMod.loadConfig({
      ...base,
      ...as('webhooks'),
      APPLICATIONS_GRPC_URL: `127.0.0.1:${aPorts.grpcPort}`,
      TEST_REPLY_TIMEOUT_MS: '5000',
    }),
  );
  const wPorts = await w.start();
  stops.push(() => w.stop());
  const hooks = webhooksClient(`127.0.0.1:${wPorts.grpcPort}`);
  stops.push(async () => hooks.close());
  const d: RunningDispatcher = await h.startDispatcher({
    ...TEST_DISPATCHER_ENV,
    ...as('dispatcher'),
    APPLICATIONS_GRPC_URL: `127.0.0.1:${aPorts.grpcPort}`,
    WEBHOOKS_GRPC_URL: `127.0.0.1:${wPorts.grpcPort}`,
    DELIVERY_ALLOWED_CIDRS: '127.0.0.0/8,::1/128',
  });
  stops.push(() => d.stop());
  const core: NatsHandle = await connectNats(url, createLogger('core', 'silent'), 'core', {
    user: 'core',
    password: PASSWORDS.core,
  });
  stops.push(() => core.close());
  // A service may not publish what is not its own: the dispatcher's user cannot forge a deletion.
  const asDispatcher = await connectNats(url, createLogger('dispatcher-test', 'silent'), 'dispatcher-test', {
    user: 'dispatcher',
    password: PASSWORDS.dispatcher,
  });
  stops.push(() => asDispatcher.close());
  await expect(
    asDispatcher.js.publish('accounts.deleted', JSON.stringify({ accountId: '1' }), { timeout: 2000 }),
  ).rejects.toThrow();
  // The gateway's user hears the notices of revoked credentials (the applications service's) and deleted accounts.
  const asGateway = await connectNats(url, createLogger('gateway-test', 'silent'), 'gateway-test', {
    user: 'gateway',
    password: PASSWORDS.gateway,
  });
  stops.push(() => asGateway.close());
  const heard: string[] = [];
  for (const subject of ['credentials.>', 'accounts.>']) {
    const sub = asGateway.nc.subscribe(subject, { callback: (_e, m) => void heard.push(m.subject) });
    stops.push(async () => sub.unsubscribe());
  }
  await asGateway.nc.flush();
  const asApplications = await connectNats(url, createLogger('applications-test', 'silent'), 'applications-test', {
    user: 'applications',
    password: PASSWORDS.applications,
  });
  stops.push(() => asApplications.close());
  asApplications.nc.publish('credentials.revoked', JSON.stringify({ accountId: '1', keyIds: ['ak_test'] }));
  await waitFor(() => heard.includes('credentials.revoked'), {
    what: 'the revocation notice heard by the gateway user',
  });
  // The gateway's user keeps the shared limits in their bucket (it makes it and leases from it),
  // and writes no other bucket.
  const rate = { perSecond: 1, burst: 2 };
  const limits = new SharedLimitStore({
    nats: { url, user: 'gateway', password: PASSWORDS.gateway },
    logger: createLogger('limits-test', 'silent'),
    spec: limitsBucketSpec([rate]),
    maxBytes: 64 * 1024,
    replicas: 1,
    timeoutMs: 2000,
  });
  limits.start();
  stops.push(() => limits.stop());
  await waitFor(() => limits.available, { what: 'the shared limits kept by the gateway user' });
  expect((await limits.lease('address.test', 5, rate)).granted).toBe(2);
  expect((await limits.lease('address.test', 1, rate)).granted).toBe(0);
  await expect(asGateway.js.publish('$KV.SWITCHBOARD_SESSIONS.x', 'x', { timeout: 2000 })).rejects.toThrow();
  const outcomes: string[] = [];
  const outcomeSub = core.nc.subscribe('sessions.instructions', {
    callback: (_e, m) => void outcomes.push((m.json() as { sessionId: string }).sessionId),
  });
  stops.push(async () => outcomeSub.unsubscribe());

  const username = randomName('natsuser');
  const account = await createAccount(a.orm.em.fork(), username, 'a-password-of-some-length');
  const accountId = String(account.id);
  // A notification through the core's event, delivered and recorded.
  const path = `/nats-users/${accountId}`;
  const { subscription } = await hooks.createSubscription({
    accountId,
    applicationId: '',
    event: 'cdrCreated',
    resource: 'all',
    targetUrl: rx.url(path),
  });
  await core.js.publish('cdr.created', JSON.stringify(cdrEvent(accountId)));
  await waitFor(() => rx.at(path).length === 1, { what: 'the notification delivered' });
  const listed = async () =>
    (await hooks.listDeliveries({ accountId, subscriptionId: subscription!.id, limit: 10 })).deliveries;
  await waitFor(async () => (await listed()).length === 1, { what: 'its record stored' });
  // A resend (deliveries.resend) and a test send (dispatcher.test).
  await hooks.resendDelivery({
    accountId,
    subscriptionId: subscription!.id,
    applicationId: '',
    deliveryId: (await listed())[0]!.id,
  });
  await waitFor(() => rx.at(path).length === 2, { what: 'the resend delivered' });
  const tested = await hooks.testSubscription({ accountId, id: subscription!.id });
  expect(tested.status).toBe(200);
  // A session from the core, answered by the application, its outcome back to the core.
  rx.on('/nats-users/voice', () => ({
    status: 200,
    body: JSON.stringify({ tropo: [{ say: { value: 'hi' } }] }),
    headers: { 'content-type': 'application/json' },
  }));
  const { application } = await (await import('@switchboard/proto'))
    .applicationsClient(`127.0.0.1:${aPorts.grpcPort}`)
    .createApplication({ accountId, name: 'voice', voiceUrl: rx.url('/nats-users/voice') });
  const sessionId = randomName('s');
  await core.js.publish(
    'sessions.new',
    JSON.stringify({
      applicationId: application!.id,
      session: {
        id: sessionId,
        from: { id: '+14155550100', channel: 'VOICE' },
        to: { id: '+14155550199', channel: 'VOICE' },
      },
    }),
  );
  await waitFor(() => outcomes.includes(sessionId), { what: 'the session outcome', timeoutMs: 15_000 });
  // The account's deletion reaches the webhooks service (accounts.deleted).
  await deleteAccount(a.orm.em.fork(), username);
  await waitFor(
    async () =>
      (await hooks.listSubscriptions({ accountId, applicationId: '', limit: 10, cursor: '' })).subscriptions.length ===
      0,
    { what: 'subscriptions removed', timeoutMs: 15_000 },
  );
  await waitFor(() => heard.includes('accounts.deleted'), { what: 'the deletion heard by the gateway user' });
}, 120_000);
