import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '@nats-io/transport-node';
import { DeliverPolicy, jetstream } from '@nats-io/jetstream';
import { addNumbers } from '@switchboard/applications/numbers';
import { AppError } from '@switchboard/errors';
import { addressesClient, type AddressesClient } from '@switchboard/proto';
import {
  ORLANDO,
  orlandoNumber,
  queryDatabase,
  waitFor,
  type Services,
  type TestAccount,
  type JsonBody,
} from '../../../test/support';
import { createApplication, useGatewayStack } from './harness';

let stack: Services<{ gateway: true }>;
let alice: TestAccount;
let bob: TestAccount;
let grpc: AddressesClient;
let appA: string;
let appA2: string;
let appB: string;

const json = async (res: Response) => (await res.json()) as JsonBody;
const path = (href: string) => new URL(href).pathname;

/** `count` consecutive E.164 numbers from `first`. */
const range = (first: number, count: number) => Array.from({ length: count }, (_, i) => `+${first + i}`);

const createApp = (account: TestAccount, name: string) => createApplication(stack, account, { name });

async function claim(account: TestAccount, app: string, body: unknown): Promise<Response> {
  return stack.request(account, 'POST', `/v1/applications/${app}/addresses`, body);
}

async function claimHref(account: TestAccount, app: string, body: unknown): Promise<string> {
  const res = await claim(account, app, body);
  expect(res.status, JSON.stringify(body)).toBe(200);
  return (await json(res)).href as string;
}

const claimedCount = async () =>
  Number(
    (
      await queryDatabase<{ n: string }>(
        stack.databaseUrl,
        'select count(*) as n from applications.numbers where application_id is not null',
      )
    )[0]!.n,
  );

useGatewayStack({}, (f) => ({ stack, alice, bob } = f));
beforeAll(async () => {
  [appA, appA2, appB] = await Promise.all([createApp(alice, 'a'), createApp(alice, 'a2'), createApp(bob, 'b')]);
  const em = stack.applications.app.orm.em.fork();
  await addNumbers(em, range(14075550100, 20), ORLANDO);
  await addNumbers(em, range(13125550100, 5), { city: 'Chicago', state: 'IL', country: 'US', smsEnabled: false });
  await addNumbers(em, ['+442079460000'], { smsEnabled: false });
  grpc = addressesClient(`127.0.0.1:${stack.applications.grpcPort}`, { defaultTimeoutMs: 5000 });
}, 120_000);
afterAll(() => grpc?.close());

describe('claiming addresses', () => {
  it('when a number is claimed by prefix, then 200 {href} with Location, and the href reads the number with its exchange', async () => {
    const res = await claim(alice, appA, { type: 'number', prefix: '1407' });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(Object.keys(body)).toEqual(['href']);
    expect(body.href).toBe(`${stack.baseUrl}/rest/v1/applications/${appA}/addresses/number/+14075550100`);
    expect(res.headers.get('location')).toBe(body.href);

    const got = await stack.request(alice, 'GET', path(body.href));
    expect(got.status).toBe(200);
    expect(await json(got)).toEqual({
      href: body.href,
      type: 'number',
      ...orlandoNumber(),
    });
    // The number without "+" names the same address; /v1 serves it too.
    expect((await stack.request(alice, 'GET', `/v1/applications/${appA}/addresses/number/14075550100/`)).status).toBe(
      200,
    );
  });

  it('when a prefix has a leading + or city and state, then they choose among the free numbers', async () => {
    const href = await claimHref(alice, appA, { type: 'number', prefix: '+1', city: 'chicago', state: 'IL' });
    expect(href).toMatch(/\/number\/\+13125550100$/);
  });

  it('when an exact number is claimed, then it is that number; taken or unknown numbers are a 409', async () => {
    expect(await claimHref(alice, appA, { type: 'number', number: '14075550119' })).toMatch(/\/number\/\+14075550119$/);
    for (const number of ['+14075550119', '+19995550100']) {
      const res = await claim(bob, appB, { type: 'number', number });
      expect(res.status).toBe(409);
      expect((await json(res)).detail).toMatch(/not available/);
    }
  });

  it('when a token or a SIP address is created, then it is random and shown to its owner', async () => {
    const token = await claimHref(alice, appA, { type: 'token', channel: 'Voice' });
    expect(token).toMatch(/\/addresses\/token\/[0-9a-f]{64}$/);
    const t = await json(await stack.request(alice, 'GET', path(token)));
    expect(t).toEqual({ href: token, type: 'token', channel: 'voice', token: token.split('/').pop() });

    const sip = await claimHref(alice, appA, { type: 'sip' });
    expect(sip).toMatch(/\/addresses\/sip\/sip:[0-9a-f]{20}@sip\.switchboard\.local$/);
    expect(await json(await stack.request(alice, 'GET', path(sip)))).toEqual({
      href: sip,
      type: 'sip',
      address: sip.split('/').pop(),
    });

    const all = await json(await stack.request(alice, 'GET', `/rest/v1/applications/${appA}/addresses/`));
    expect(all.map((a: { type: string }) => a.type)).toEqual(['number', 'number', 'number', 'token', 'sip']);
    const tokens = await json(await stack.request(alice, 'GET', `/v1/applications/${appA}/addresses/token`));
    expect(tokens).toEqual([t]);
  });

  it('when the Tropo clients send null for fields they do not use, then nulls mean "not given"', async () => {
    const href = await claimHref(alice, appA2, {
      type: 'number',
      prefix: '1312',
      city: null,
      state: null,
      channel: null,
      username: null,
      password: null,
      token: null,
    });
    expect(href).toContain(`/applications/${appA2}/addresses/number/+1312`);
  });

  it('when no free number has the prefix, then 409 says so, with the detail in error too', async () => {
    const res = await claim(alice, appA, { type: 'number', prefix: '1999' });
    expect(res.status).toBe(409);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const body = await json(res);
    expect(body).toMatchObject({ status: 409, code: 'conflict', detail: 'no free number starts with +1999' });
    expect(body.error).toBe(body.detail);
  });

  it('when the type, a number or a field is wrong, then 400 and nothing is claimed', async () => {
    const before = await claimedCount();
    for (const [body, field, why] of [
      [{ type: 'pin' }, 'type', /number, token or sip/],
      [{ type: 'skype', username: null }, 'type', /no longer supported/],
      [{ type: 'Jabber' }, 'type', /no longer supported/],
      [{}, 'type', /required/],
      [{ type: 'number' }, 'prefix', /required/],
      [{ type: 'number', number: '+1407555x' }, 'number', /E\.164/],
      [{ type: 'number', prefix: 'abc' }, 'prefix', /digits/],
      [{ type: 'number', prefix: '1407', number: '+14075550101' }, 'number', /either/],
      [{ type: 'number', prefix: '1407', channel: 'voice' }, 'channel', /not used by number/],
      [{ type: 'token' }, 'channel', /required/],
      [{ type: 'token', channel: 'fax' }, 'channel', /voice or messaging/],
      [{ type: 'token', channel: 'voice', prefix: '1407' }, 'prefix', /not used by token/],
      [{ type: 'token', channel: 'voice', token: 'mine' }, 'token', /generated/],
      [{ type: 'sip', number: '+14075550101' }, 'number', /not used by sip/],
      [{ type: 'number', prefix: 1407 }, 'prefix', /string/],
    ] as const) {
      const res = await claim(alice, appA, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const p = await json(res);
      expect(
        p.errors?.map((e: { field: string }) => e.field),
        JSON.stringify(body),
      ).toContain(field);
      expect(p.detail, JSON.stringify(body)).toMatch(why);
    }
    const badPaths = [
      `/v1/applications/${appA}/addresses/number/abc`,
      `/v1/applications/${appA}/addresses/sip/nope`,
      `/v1/applications/${appA}/addresses/token/XYZ`,
      `/v1/applications/${appA}/addresses/aim`,
    ];
    for (const p of badPaths) expect((await stack.request(alice, 'GET', p)).status, p).toBe(400);
    expect(await claimedCount()).toBe(before);
  });
});

describe('ownership', () => {
  it("when another account reads, moves, releases or claims into an application's addresses, then 404 and nothing changes", async () => {
    const href = await claimHref(alice, appA, { type: 'number', prefix: '1407' });
    const number = href.split('/').pop()!;
    const before = await claimedCount();
    expect((await stack.request(bob, 'GET', path(href))).status).toBe(404);
    expect((await stack.request(bob, 'GET', `/v1/applications/${appA}/addresses`)).status).toBe(404);
    expect((await stack.request(bob, 'GET', `/v1/applications/${appB}/addresses/number/${number}`)).status).toBe(404);
    expect((await stack.request(bob, 'DELETE', path(href))).status).toBe(404);
    expect((await stack.request(bob, 'DELETE', `/v1/applications/${appB}/addresses/number/${number}`)).status).toBe(
      404,
    );
    expect((await stack.request(bob, 'POST', `/v1/applications/${appB}/addresses/number/${number}`)).status).toBe(404);
    expect((await claim(bob, appA, { type: 'number', prefix: '1407' })).status).toBe(404);
    // Alice cannot move her number into Bob's application either.
    expect((await stack.request(alice, 'POST', `/v1/applications/${appB}/addresses/number/${number}`)).status).toBe(
      404,
    );
    expect((await stack.request(alice, 'GET', path(href))).status).toBe(200);
    expect(await claimedCount()).toBe(before);
  });
});

describe('moving and releasing', () => {
  it("when an address is POSTed with no body under another of the owner's applications, then it moves there", async () => {
    const href = await claimHref(alice, appA, { type: 'number', prefix: '1407' });
    const number = href.split('/').pop()!;
    // Without Content-Type, and with Content-Type: application/json and Content-Length: 0 (as the Tropo clients send it).
    const moved = await stack.request(alice, 'POST', `/v1/applications/${appA2}/addresses/number/${number}`);
    expect(moved.status).toBe(200);
    const to = (await json(moved)).href as string;
    expect(to).toBe(`${stack.baseUrl}/rest/v1/applications/${appA2}/addresses/number/${number}`);
    expect(moved.headers.get('location')).toBe(to);
    expect((await stack.request(alice, 'GET', path(href))).status).toBe(404);
    expect((await stack.request(alice, 'GET', path(to))).status).toBe(200);

    const back = await fetch(`${stack.baseUrl}/v1/applications/${appA}/addresses/number/${number}`, {
      method: 'POST',
      headers: { authorization: alice.authorization, 'content-type': 'application/json', 'content-length': '0' },
    });
    expect(back.status).toBe(200);
    expect((await stack.request(alice, 'GET', path(href))).status).toBe(200);
  });

  it('when an address is deleted, then it is released: a number is free again, a token is gone', async () => {
    const href = await claimHref(alice, appA, { type: 'number', prefix: '1407' });
    const number = href.split('/').pop()!;
    const token = await claimHref(alice, appA, { type: 'token', channel: 'messaging' });
    for (const h of [href, token]) {
      // The Node Tropo client sends DELETE with Content-Type: application/json and Content-Length: 0.
      const res = await fetch(`${stack.baseUrl}${path(h)}`, {
        method: 'DELETE',
        headers: { authorization: alice.authorization, 'content-type': 'application/json', 'content-length': '0' },
      });
      expect(res.status).toBe(200);
      expect(await json(res)).toEqual({ message: expect.stringMatching(/released/) });
      expect((await stack.request(alice, 'GET', path(h))).status).toBe(404);
      expect((await stack.request(alice, 'DELETE', path(h))).status).toBe(404);
    }
    const free = await json(await stack.request(alice, 'GET', `/addresses?available&prefix=${number.slice(1)}`));
    expect(free).toEqual([
      {
        type: 'number',
        ...orlandoNumber(number),
      },
    ]);
  });

  it('when an application is deleted, then its numbers go back to the inventory and its tokens and SIP addresses are gone', async () => {
    const app = await createApp(alice, 'short-lived');
    const number = (await claimHref(alice, app, { type: 'number', prefix: '1407' })).split('/').pop()!;
    const sip = (await claimHref(alice, app, { type: 'sip' })).split('/').pop()!;
    expect(await grpc.resolveAddress({ address: number })).toEqual({ applicationId: app, accountId: alice.id });
    expect((await stack.request(alice, 'DELETE', `/v1/applications/${app}`)).status).toBe(200);
    expect(
      await queryDatabase(stack.databaseUrl, 'select application_id from applications.numbers where number = $1', [
        number,
      ]),
    ).toEqual([{ application_id: null }]);
    expect(
      await queryDatabase(stack.databaseUrl, 'select 1 from applications.addresses where value = $1', [sip]),
    ).toEqual([]);
    for (const address of [number, sip])
      await expect(grpc.resolveAddress({ address })).rejects.toMatchObject({ code: 'not_found' });
    // The dispatcher's cache learns of it: one addresses.changed per released address.
    const events = await waitFor(async () => {
      const found = (await internalEvents('addresses.changed')).filter(
        (e) => e.previousApplicationId === app && e.applicationId === null,
      );
      return found.length === 2 ? found : undefined;
    });
    expect(events.map((e) => e.address).sort()).toEqual([number, sip].sort());
  });
});

describe('concurrent claims', () => {
  it('when 50 claims of one prefix race for 45 numbers, then each number goes to exactly one claim and the rest are 409', async () => {
    await addNumbers(stack.applications.app.orm.em.fork(), range(17865550100, 45), { smsEnabled: false });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => claim(alice, i % 2 ? appA : appA2, { type: 'number', prefix: '1786' })),
    );
    const ok = results.filter((r) => r.status === 200);
    expect(results.filter((r) => r.status === 409)).toHaveLength(5);
    expect(ok).toHaveLength(45);
    const numbers = await Promise.all(ok.map(async (r) => ((await json(r)).href as string).split('/').pop()));
    expect(new Set(numbers).size).toBe(45);
    const rows = await queryDatabase<{ n: string }>(
      stack.databaseUrl,
      "select count(*) as n from applications.numbers where number like '+1786%' and application_id is not null",
    );
    expect(Number(rows[0]!.n)).toBe(45);
  }, 60_000);
});

describe('the inventory as customers see it', () => {
  it('when exchanges are listed, then each prefix with free numbers appears with its place, and exhausted prefixes do not', async () => {
    const res = await stack.request(alice, 'GET', '/v1/exchanges');
    expect(res.status).toBe(200);
    const list = await json(res);
    expect(list).toContainEqual({ prefix: '1407', city: 'Orlando', state: 'FL', country: 'US' });
    expect(list).toContainEqual({ prefix: '4420', city: null, state: null, country: null });
    expect(list.map((e: { prefix: string }) => e.prefix)).not.toContain('1786');
    expect(await json(await stack.request(alice, 'GET', '/v1/exchanges/'))).toEqual(list);
  });

  it('when free numbers are listed at /addresses?available, then only free ones of the prefix appear, pageable with limit', async () => {
    const all = await json(await stack.request(alice, 'GET', '/addresses?available&prefix=%2B1312'));
    expect(all.length).toBeGreaterThan(0);
    for (const a of all)
      expect(a).toMatchObject({
        type: 'number',
        number: expect.stringMatching(/^\+1312/),
        prefix: '1312',
        city: 'Chicago',
      });
    expect(all[0].href).toBeUndefined();
    const page = await stack.request(alice, 'GET', '/v1/addresses?available&prefix=1312&limit=1');
    expect(await json(page)).toEqual([all[0]]);
    if (all.length > 1) expect(page.headers.get('link')).toMatch(/rel="next"/);
    expect(await stack.listAll(alice, '/v1/addresses?available&prefix=1312&limit=1')).toEqual(all);
    expect((await stack.request(alice, 'GET', '/addresses?prefix=1312')).status).toBe(400);
    expect((await stack.request(alice, 'GET', '/addresses?available&prefix=12x')).status).toBe(400);
    expect((await stack.request(undefined, 'GET', '/addresses?available')).status).toBe(401);
  });
});

describe('users by username', () => {
  it('when a user reads itself by username, then it gets its user; another username is 404', async () => {
    const res = await stack.request(alice, 'GET', `/v1/users/${alice.username}`);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({
      href: `${stack.baseUrl}/rest/v1/users/${alice.id}`,
      id: Number(alice.id),
      username: alice.username,
      createdAt: expect.any(String),
    });
    expect((await stack.request(alice, 'GET', `/v1/users/${bob.username}`)).status).toBe(404);
    expect((await stack.request(alice, 'GET', `/rest/v1/users/${bob.id}`)).status).toBe(404);
  });
});

describe('ResolveAddress (internal)', () => {
  it('when a dialled number or SIP URI is written in any accepted form, then it resolves to its owner; unknown ones are NOT_FOUND', async () => {
    const number = (await claimHref(bob, appB, { type: 'number', prefix: '4420' })).split('/').pop()!;
    const sip = (await claimHref(bob, appB, { type: 'sip' })).split('/').pop()!;
    const owner = { applicationId: appB, accountId: bob.id };
    for (const address of [
      number,
      number.slice(1),
      `tel:${number}`,
      'tel:+44 20 7946 0000',
      sip,
      sip.replace('sip.switchboard.local', 'SIP.Switchboard.LOCAL'),
      `<${sip}:5060;transport=tcp>`,
    ]) {
      expect(await grpc.resolveAddress({ address }), address).toEqual(owner);
    }
    for (const address of ['+14075559999', 'sip:nobody@sip.switchboard.local', 'garbage', '']) {
      const err = await grpc.resolveAddress({ address }).catch((e: unknown) => e);
      expect(err, address).toBeInstanceOf(AppError);
      expect((err as AppError).code, address).toBe('not_found');
    }
  });
});

describe('address events', () => {
  it('when an address is claimed and moved, then addresses.changed carries the new and the previous owner', async () => {
    const number = (await claimHref(alice, appA, { type: 'number', prefix: '1407' })).split('/').pop()!;
    expect((await stack.request(alice, 'POST', `/v1/applications/${appA2}/addresses/number/${number}`)).status).toBe(
      200,
    );
    const events = await waitFor(async () => {
      // The number may have been claimed and released by earlier tests: the last two events are this test's.
      const found = (await internalEvents('addresses.changed')).filter((e) => e.address === number);
      return found.at(-1)?.previousApplicationId === appA ? found.slice(-2) : undefined;
    });
    expect(events).toEqual([
      { type: 'number', address: number, applicationId: appA, previousApplicationId: null, accountId: alice.id },
      { type: 'number', address: number, applicationId: appA2, previousApplicationId: appA, accountId: alice.id },
    ]);
  });
});

/** Bodies of the messages stored so far on the internal stream under `subject`. */
async function internalEvents(subject: string): Promise<Record<string, unknown>[]> {
  const nc = await connect({ servers: stack.nats.url });
  try {
    const consumer = await jetstream(nc).consumers.get('SWITCHBOARD_INTERNAL', { deliver_policy: DeliverPolicy.All });
    const out: Record<string, unknown>[] = [];
    for (;;) {
      const m = await consumer.next({ expires: 1000 });
      if (!m) return out;
      if (m.subject === subject) out.push(m.json());
    }
  } finally {
    await nc.close();
  }
}
