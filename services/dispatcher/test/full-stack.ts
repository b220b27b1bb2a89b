// The whole stack (gateway, applications, webhooks, one dispatcher delivering to loopback) with a
// receiver and two accounts, for the tests that follow a session or an event through every service.
// The bindings are live: read them inside the tests, once the stack is up.
import { useDeliveryStack, type Receiver, type Services, type TestAccount } from '../../../test/support';
import { TEST_DISPATCHER_ENV } from './harness';

export let stack: Services<{ gateway: true; webhooks: true; dispatcher: true }>;
export let rx: Receiver;
/** The account the tests act as. */
export let me: TestAccount;
/** Another account, which must never see `me`'s resources. */
export let other: TestAccount;

/** Starts the stack before the file's tests (accounts named `name` and `other`; `env` for the services). */
export function useFullStack(name: string, env?: Record<string, string>): void {
  useDeliveryStack(
    { gateway: true, dispatcher: true, dispatcherEnv: TEST_DISPATCHER_ENV, ...(env ? { env } : {}) },
    (f) =>
      ({
        stack,
        rx,
        accounts: [me, other],
      } = f),
    [name, 'other'],
  );
}
