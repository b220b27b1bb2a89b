// Fixture of the gateway's tests: the real gateway and applications services (and whatever else
// the options ask for) on a fresh database, with two accounts, alice and bob; and the setup steps
// several test files take through the API (an application, a console sign-in).
import { afterAll, beforeAll, expect } from 'vitest';
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

/**
 * Creates an application of `account` by the API (named `app` with a voice URL, unless `fields` say
 * otherwise), expects 200 and answers its id (the last segment of its href).
 */
export async function createApplication(
  stack: Pick<Services<{ gateway: true }>, 'request'>,
  account: TestAccount,
  fields: Record<string, unknown> = {},
): Promise<string> {
  return createdId(stack, account, '/v1/applications', {
    name: 'app',
    voiceUrl: 'https://example.com/voice',
    ...fields,
  });
}

/**
 * POSTs `body` to `path` as `account`, expects 200 (a failure shows the answer) and answers the new
 * resource's id (the last segment of its href).
 */
export async function createdId(
  stack: Pick<Services<{ gateway: true }>, 'request'>,
  account: TestAccount,
  path: string,
  body: Record<string, unknown>,
): Promise<string> {
  const res = await stack.request(account, 'POST', path, body);
  expect(res.status, await res.clone().text()).toBe(200);
  return String(((await res.json()) as { href: string }).href)
    .split('/')
    .pop()!;
}

/**
 * Signs `account` in as the console does (POST /v1/console/session with its username and password,
 * and `headers`, e.g. this API's Origin): the answer, and the session cookie it set (`name=value`,
 * '' when none).
 */
export async function consoleSignIn(
  stack: Pick<Services<{ gateway: true }>, 'baseUrl'>,
  account: TestAccount,
  headers: Record<string, string> = {},
): Promise<{ res: Response; cookie: string }> {
  const res = await fetch(`${stack.baseUrl}/v1/console/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ username: account.username, password: account.password }),
  });
  return { res, cookie: res.headers.get('set-cookie')?.split(';')[0] ?? '' };
}
