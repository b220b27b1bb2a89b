// Stacks the tests start for a whole file or block (useServices, useNatsConnection), and those of
// the delivery tests: webhooks on, and dispatchers allowed to deliver to the tests' loopback receivers.
import { afterAll, beforeAll } from 'vitest';
import { connectNats, type NatsHandle } from '@switchboard/messaging';
import { createLogger } from '@switchboard/observability';
import { createTestDatabase, randomName, startNatsServer, type NatsServer, type TestDatabase } from './infra';
import { startReceiver, type Receiver } from './receiver';
import { useFixture } from './fixture';
import { startServices, type Services, type ServicesOptions, type TestAccount } from './services';

/**
 * Starts the stack of `opts` (startServices) before all tests of the file and stops it after them;
 * `onReady` receives it once started (e.g. `useServices({}, (s) => (stack = s))`).
 */
export function useServices<const O extends ServicesOptions>(opts: O, onReady: (stack: Services<O>) => void): void {
  useFixture(
    () => startServices(opts),
    (stack) => stack.stop(),
    onReady,
  );
}

/** A fresh database for the tests of the file, dropped after them; `onReady` receives it (e.g. `useTestDatabase((d) => (db = d))`). */
export function useTestDatabase(onReady: (db: TestDatabase) => void): void {
  useFixture(createTestDatabase, (db) => db.drop(), onReady);
}

/**
 * A private NATS server and a connection to it named `name`, started before the tests of the
 * enclosing block (file or describe) and closed after them; `onReady` receives the connection
 * once both are up, and may prepare the server (streams, buckets) before the tests run.
 */
export function useNatsConnection(name: string, onReady: (bus: NatsHandle) => void | Promise<void>): void {
  let nats: NatsServer | undefined;
  let bus: NatsHandle | undefined;
  beforeAll(async () => {
    nats = await startNatsServer();
    bus = await connectNats(nats.url, createLogger(name, 'silent'), name);
    await onReady(bus);
  });
  afterAll(async () => {
    await bus?.close();
    await nats?.destroy();
  });
}

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
 * file, with an account for each of `accounts` (its username's prefix), and stops both after them;
 * `onReady` receives them once started, the accounts in that order
 * (e.g. `useDeliveryStack({ gateway: true }, (f) => ({ stack, rx, accounts: [me, other] } = f), ['me', 'other'])`).
 */
export function useDeliveryStack<const O extends ServicesOptions, const N extends readonly string[] = []>(
  opts: O,
  onReady: (f: {
    stack: Services<O & { webhooks: true }>;
    rx: Receiver;
    accounts: { -readonly [K in keyof N]: TestAccount };
  }) => void,
  accounts?: N,
): void {
  let stack: Services<O & { webhooks: true }> | undefined;
  let rx: Receiver | undefined;
  beforeAll(async () => {
    stack = await startDeliveryServices(opts);
    rx = await startReceiver();
  });
  // A hook of its own (its own timeout): a loaded machine may take most of one to start the stack.
  beforeAll(async () => {
    const made: TestAccount[] = [];
    for (const name of accounts ?? []) made.push(await stack!.createAccount(name));
    onReady({ stack: stack!, rx: rx!, accounts: made as { -readonly [K in keyof N]: TestAccount } });
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
