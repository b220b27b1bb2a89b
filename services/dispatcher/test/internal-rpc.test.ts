// The RPCs that answer signing secrets (LookupApplication, MatchSubscriptions, GetDeliveryTarget)
// are served only to callers with the service's INTERNAL_RPC_TOKEN: in a stack where the
// applications and webhooks services have one, a caller without it (such as the gateway) or with a
// wrong one is refused, batched or not, while the dispatcher, which has it, delivers as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationsClient, callBatcher, webhooksClient } from '@switchboard/proto';
import { startReceiver, startServices, waitFor, type Receiver, type Services } from '../../../test/support';
import { cdrEvent, TEST_DISPATCHER_ENV } from './harness';

/** grpc.status.PERMISSION_DENIED. */
const PERMISSION_DENIED = 7;
const APPS_TOKEN = 'applications-internal-token-0123456789';
const HOOKS_TOKEN = 'webhooks-internal-token-0123456789';

let h: Services<{ webhooks: true }>;
let rx: Receiver;

beforeAll(async () => {
  h = await startServices({
    webhooks: true,
    env: { DELIVERY_ALLOWED_CIDRS: '127.0.0.0/8,::1/128' },
    dispatcherEnv: TEST_DISPATCHER_ENV,
  });
  rx = await startReceiver();
});
afterAll(async () => {
  await h?.stop();
  await rx?.close();
});

describe('internal RPCs', () => {
  it('when a caller has no token or a wrong one, then LookupApplication, MatchSubscriptions and GetDeliveryTarget are refused (PERMISSION_DENIED), while the dispatcher with the tokens delivers', async () => {
    // A second applications and webhooks service on the stack's database, each with its token.
    const apps = await import('@switchboard/applications');
    const hooks = await import('@switchboard/webhooks');
    const a = await apps.createApp(
      apps.loadConfig({
        ...h.env,
        GRPC_PORT: '0',
        OPS_PORT: '0',
        MIGRATE_ON_START: 'false',
        INTERNAL_RPC_TOKEN: APPS_TOKEN,
      }),
    );
    const aPorts = await a.start();
    const w = await hooks.createApp(
      hooks.loadConfig({
        ...h.env,
        GRPC_PORT: '0',
        OPS_PORT: '0',
        MIGRATE_ON_START: 'false',
        APPLICATIONS_GRPC_URL: `127.0.0.1:${aPorts.grpcPort}`,
        INTERNAL_RPC_TOKEN: HOOKS_TOKEN,
      }),
    );
    const wPorts = await w.start();
    const appsAt = `127.0.0.1:${aPorts.grpcPort}`;
    const hooksAt = `127.0.0.1:${wPorts.grpcPort}`;
    const open = { apps: applicationsClient(appsAt), hooks: webhooksClient(hooksAt) };
    const wrong = {
      apps: applicationsClient(appsAt, { token: 'not-the-token-of-this-service' }),
      hooks: webhooksClient(hooksAt, { token: APPS_TOKEN }),
    };
    const batched = webhooksClient(hooksAt, { batch: callBatcher(hooksAt, { target: 'webhooks' }) });
    try {
      const accountId = await h.newAccount();
      const { application } = await open.apps.createApplication({
        accountId,
        name: 'secret-holder',
        voiceUrl: rx.url('/voice'),
      });
      const sub = await h.subscribe(accountId, {
        event: 'cdrCreated',
        resource: 'all',
        targetUrl: rx.url(`/internal/${accountId}`),
      });
      const calls = (c: typeof open) => [
        () => c.apps.lookupApplication({ id: application!.id }),
        () => c.hooks.matchSubscriptions({ accountId, applicationId: '', event: 'cdrCreated', resource: 'call' }),
        () => c.hooks.getDeliveryTarget({ accountId, subscriptionId: sub.id }),
      ];
      for (const call of [
        ...calls(open),
        ...calls(wrong),
        () => batched.getDeliveryTarget({ accountId, subscriptionId: sub.id }),
      ]) {
        const err = await call().then(
          () => undefined,
          (e: unknown) => e as { cause?: { code?: number; details?: string } },
        );
        expect(err, 'refused').toBeDefined();
        expect(err!.cause?.code).toBe(PERMISSION_DENIED);
        expect(err!.cause?.details).toMatch(/internal token/);
      }
      // Other RPCs of the same services still answer a caller without a token.
      expect((await open.apps.getApplication({ accountId, id: application!.id })).application?.id).toBe(
        application!.id,
      );

      const d = await h.startDispatcher({
        APPLICATIONS_GRPC_URL: appsAt,
        WEBHOOKS_GRPC_URL: hooksAt,
        APPLICATIONS_RPC_TOKEN: APPS_TOKEN,
        WEBHOOKS_RPC_TOKEN: HOOKS_TOKEN,
      });
      try {
        await h.publish('cdr.created', cdrEvent(accountId));
        await waitFor(() => rx.at(`/internal/${accountId}`).length === 1, { what: 'delivery with the tokens' });
      } finally {
        await d.stop();
      }
    } finally {
      for (const c of [open.apps, open.hooks, wrong.apps, wrong.hooks, batched]) c.close();
      await w.stop();
      await a.stop();
    }
  });
});
