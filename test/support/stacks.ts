// Stacks the delivery tests start: webhooks on, and dispatchers allowed to deliver to the tests'
// loopback receivers.
import { afterAll, beforeAll } from 'vitest';
import { randomName } from './infra';
import { startReceiver, type Receiver } from './receiver';
import { startServices, type Services, type ServicesOptions } from './services';

/** Starts `opts` with the webhooks service and DELIVERY_ALLOWED_CIDRS set to loopback (before `opts.env`). */
export function startDeliveryServices<const O extends ServicesOptions>(
  opts: O,
): Promise<Services<O & { webhooks: true }>> {
  return startServices({
    ...opts,
    webhooks: true,
    env: { DELIVERY_ALLOWED_CIDRS: '127.0.0.0/8,::1/128', ...opts.env },
  });
}

/**
 * Starts a delivery stack of `opts` (startDeliveryServices) and a receiver before all tests of the
 * file, and stops both after them; `onReady` receives them once started
 * (e.g. `useDeliveryStack({ gateway: true }, (f) => ({ stack, rx } = f))`).
 */
export function useDeliveryStack<const O extends ServicesOptions>(
  opts: O,
  onReady: (f: { stack: Services<O & { webhooks: true }>; rx: Receiver }) => void,
): void {
  let stack: Services<O & { webhooks: true }> | undefined;
  let rx: Receiver | undefined;
  beforeAll(async () => {
    stack = await startDeliveryServices(opts);
    rx = await startReceiver();
    onReady({ stack, rx });
  });
  afterAll(async () => {
    await stack?.stop();
    await rx?.close();
  });
}

/** A docs/events.md#inbound notification event. */
export function cdrEvent(
  accountId: string,
  fields: Partial<{ id: string; applicationId: string; resource: string; data: unknown }> = {},
) {
  return {
    id: fields.id ?? randomName('evt'),
    accountId,
    ...(fields.applicationId ? { applicationId: fields.applicationId } : {}),
    resource: fields.resource ?? 'call',
    timestamp: '2025-03-01T10:00:00.000Z',
    data: fields.data ?? { durationSeconds: 42 },
  };
}
