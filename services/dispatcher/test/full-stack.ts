// The whole stack (gateway, applications, webhooks, one dispatcher delivering to loopback) with a
// receiver and two accounts, for the tests that follow a session or an event through every service.
// The bindings are live: read them inside the tests, once the stack is up.
import { Webhook } from 'standardwebhooks';
import { expect } from 'vitest';
import {
  jsonOf,
  randomName,
  useDeliveryStack,
  type JsonBody,
  type Receiver,
  type Services,
  type TestAccount,
} from '../../../test/support';
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

/** An application of `account` whose URLs (field -> path) are the receiver's `/<name><path>`; returns its id. */
export async function newApp(
  account: TestAccount,
  name: string,
  urls: Record<string, string> = { voiceUrl: '/voice' },
): Promise<string> {
  const body = Object.fromEntries(Object.entries(urls).map(([k, path]) => [k, rx.url(`/${name}${path}`)]));
  const res = await stack.request(account, 'POST', '/v1/applications', { name, ...body });
  expect(res.status).toBe(200);
  return String((await jsonOf(res)).href)
    .split('/')
    .pop()!;
}

/** Subscribes `account` to `event` at the receiver's `path` (for the application `app` when given); returns the secret. */
export async function subscribe(account: TestAccount, event: string, path: string, app?: string): Promise<string> {
  const res = await stack.request(account, 'POST', app ? `/v1/applications/${app}/webhooks` : '/v1/webhooks', {
    event,
    resource: 'all',
    targetUrl: rx.url(path),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return String(((await res.json()) as Record<string, JsonBody>).secret);
}

/** Publishes a session for the application (or, without one, dialled at `to`); returns its id. */
export async function startSession(
  applicationId: string | undefined,
  opts: { from?: string; to?: string; channel?: 'VOICE' | 'TEXT'; accountId?: string } = {},
): Promise<string> {
  const id = randomName('sess');
  const channel = opts.channel ?? 'VOICE';
  await stack.publish('sessions.new', {
    ...(applicationId ? { applicationId } : {}),
    session: {
      id,
      ...(opts.accountId ? { accountId: opts.accountId } : {}),
      from: { id: opts.from ?? '+14155550100', channel, network: channel === 'TEXT' ? 'SMS' : 'PSTN' },
      to: { id: opts.to ?? '+14075550199', channel, network: channel === 'TEXT' ? 'SMS' : 'PSTN' },
    },
  });
  return id;
}

type Body = Record<string, JsonBody>;

/**
 * The events the receiver got at `path`, each checked to be signed with `secret` (Standard
 * Webhooks) as received, and their data ordered by sequence.
 */
export function signedEvents(path: string, secret: string): { events: Body[]; data: Body[] } {
  const wh = new Webhook(secret);
  const events = rx.at(path).map((r) => {
    expect(wh.verify(r.raw, r.headers as Record<string, string>)).toEqual(r.body);
    return r.body as Body;
  });
  const data = events.map((e) => e.data as Body).sort((a, b) => Number(a.sequence) - Number(b.sequence));
  return { events, data };
}
