// What the delivery-settings, recovery-filter, OAuth2 and mTLS tests share: an event published and a
// subscription's delivery records read through the API.
import { randomName, type JsonBody, type Services, type TestAccount } from '../../../test/support';

type Stack = Services<{ gateway: true; webhooks: true }>;

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
