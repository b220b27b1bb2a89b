// What the delivery-settings, delivery-tools, recovery-filter, OAuth2 and mTLS tests share: the
// dispatchers' environment of the recovery tests, a cdrCreated subscription made, an event published
// and a subscription's delivery records read through the API.
import { randomName, waitFor, type JsonBody, type Services, type TestAccount } from '../../../test/support';
import { createdId } from './harness';

type Stack = Services<{ gateway: true; webhooks: true }>;

/** The dispatchers of the recovery tests: quick retries, and attempts one at a time per host. */
export const RECOVERY_DISPATCHER_ENV = {
  DELIVERY_RETRY_SCHEDULE: '100ms',
  DELIVERY_TIMEOUT_MS: '2000',
  JETSTREAM_ACK_WAIT: '8s',
  RECORD_FLUSH_INTERVAL: '20ms',
  // One attempt at a time per host: a recovery's attempts then arrive exactly in their admission order.
  DELIVERY_HOST_CONCURRENCY: '1',
  DELIVERY_BREAKER_VOLUME_THRESHOLD: '1000',
};

/** Publishes a cdrCreated event of the account with `data: {n}`. */
export function publishCdr(stack: Stack, accountId: string, n: number): Promise<unknown> {
  return stack.publish('cdr.created', {
    id: randomName(`evt${n}`),
    accountId,
    resource: 'call',
    timestamp: '2026-03-01T10:00:00.000Z',
    data: { n },
  });
}

/** The delivery records of a subscription, newest first. */
export async function deliveriesOf(
  stack: Stack,
  account: TestAccount,
  id: string,
): Promise<Record<string, JsonBody>[]> {
  return (await (await stack.request(account, 'GET', `/v1/webhooks/${id}/deliveries`)).json()) as never;
}

/** Subscribes `account` to cdrCreated at `targetUrl` with `extra` fields (tls, auth, ...); answers the subscription's id. */
export async function subscribeCdr(
  stack: Stack,
  account: TestAccount,
  targetUrl: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  return createdId(stack, account, '/v1/webhooks', { event: 'cdrCreated', resource: 'all', targetUrl, ...extra });
}

/** Waits until `n` messages of the subscription have a failed delivery. */
export async function waitForFailed(stack: Stack, account: TestAccount, id: string, n: number): Promise<void> {
  await waitFor(
    async () =>
      new Set((await deliveriesOf(stack, account, id)).filter((d) => d.outcome === 'failed').map((d) => d.messageId))
        .size === n,
    { what: `${n} deliveries failed`, timeoutMs: 20_000 },
  );
}
