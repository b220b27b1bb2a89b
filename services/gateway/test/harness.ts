// Fixture of the gateway's tests: the real gateway and applications services (and whatever else
// the options ask for) on a fresh database, with two accounts, alice and bob.
import { afterAll, beforeAll } from 'vitest';
import { startServices, type Services, type ServicesOptions, type TestAccount } from '../../../test/support';

export interface GatewayStack<O extends ServicesOptions> {
  stack: Services<O & { gateway: true }>;
  alice: TestAccount;
  bob: TestAccount;
}

/**
 * Starts the stack of `opts` with a gateway and the accounts alice and bob before all tests of the
 * file, and stops it after them; `onReady` receives them once started
 * (e.g. `useGatewayStack({}, (f) => ({ stack, alice, bob } = f))`).
 */
export function useGatewayStack<const O extends ServicesOptions>(opts: O, onReady: (f: GatewayStack<O>) => void): void {
  let stack: Services<O & { gateway: true }> | undefined;
  beforeAll(async () => {
    stack = await startServices({ ...opts, gateway: true });
    const [alice, bob] = await Promise.all([stack.createAccount('alice'), stack.createAccount('bob')]);
    onReady({ stack, alice, bob });
  });
  afterAll(async () => stack?.stop());
}
