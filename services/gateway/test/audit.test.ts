// The audit log through the real gateway, the applications service and Postgres: one entry per
// change of credentials and per sign-in (and failed sign-in), with the actor, target, address and
// request id; newest first, filtered and paged; readable with a read key; another account's
// entries invisible.
import { describe, expect, it } from 'vitest';
import { addNumbers } from '@switchboard/applications/numbers';
import {
  metricSum,
  queryDatabase,
  waitFor,
  type Services,
  type TestAccount,
  type JsonBody,
} from '../../../test/support';
import type { AuditEventBody } from '../src/http/response-bodies';
import { useGatewayStack } from './harness';

let stack: Services<{ gateway: true; webhooks: true }>;
let alice: TestAccount;
let bob: TestAccount;

// The log merges the entries of both services: the webhooks service runs too.
useGatewayStack({ webhooks: true }, (f) => ({ stack, alice, bob } = f));

/** An entry of GET /v1/audit-events. */
type Entry = AuditEventBody;
const json = async (res: Response) => (await res.json()) as JsonBody;
const events = async (account: TestAccount | Record<string, string>, query = '') => {
  const res =
    'username' in account
      ? await stack.request(account as TestAccount, 'GET', `/v1/audit-events${query}`)
      : await stack.request(undefined, 'GET', `/v1/audit-events${query}`, undefined, account as Record<string, string>);
  expect(res.status).toBe(200);
  return (await res.json()) as Entry[];
};
const signIn = (username: string, password: string) =>
  fetch(`${stack.baseUrl}/v1/console/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });

describe('audit log', () => {
  it('when credentials change and users sign in, then each action has exactly one entry naming who, what, from where and which request', async () => {
    const created = await stack.request(alice, 'POST', '/v1/api-keys', { name: 'ops', scope: 'full' });
    const key = await json(created);
    const createRequestId = created.headers.get('x-request-id');
    const second = await json(await stack.request(alice, 'POST', '/v1/api-keys', { name: 'temp', scope: 'read' }));
    const revoked = await stack.request(undefined, 'DELETE', `/v1/api-keys/${second.id}`, undefined, {
      authorization: `Bearer ${key.key}`,
    });
    expect(revoked.status).toBe(204);
    expect((await signIn(alice.username, 'wrong-password')).status).toBe(401);
    const ok = await signIn(alice.username, alice.password);
    expect(ok.status).toBe(200);
    const cookie = ok.headers.get('set-cookie')!.split(';')[0]!;
    const changed = await stack.request(
      undefined,
      'PUT',
      '/v1/users/me/password',
      { current: alice.password, new: 'alice-new-password' },
      { cookie, origin: stack.baseUrl },
    );
    expect(changed.status).toBe(200);
    alice = {
      ...alice,
      password: 'alice-new-password',
      authorization: `Basic ${Buffer.from(`${alice.username}:alice-new-password`).toString('base64')}`,
    };
    const again = await signIn(alice.username, alice.password);
    const cookie2 = again.headers.get('set-cookie')!.split(';')[0]!;
    expect(
      (
        await stack.request(undefined, 'DELETE', '/v1/console/session', undefined, {
          cookie: cookie2,
          origin: stack.baseUrl,
        })
      ).status,
    ).toBe(204);

    const all = await events(alice);
    expect(all.map((e) => `${e.action} ${e.outcome}`)).toEqual([
      'session.sign-out success',
      'session.sign-in success',
      'password.change success',
      'session.sign-in success',
      'session.sign-in failure',
      'api-key.revoke success',
      'api-key.create success',
      'api-key.create success',
    ]);
    const [signOut, , change, , failure, revoke, , create] = all;
    expect(create).toMatchObject({
      actor: { type: 'password', id: alice.id, name: alice.username },
      target: key.href,
      ip: '127.0.0.1',
      requestId: createRequestId,
    });
    expect(revoke).toMatchObject({
      actor: { type: 'key', id: key.id, name: 'ops' },
      target: `${stack.baseUrl}/v1/api-keys/${second.id}`,
      requestId: revoked.headers.get('x-request-id'),
    });
    expect(failure!.ip).toBe('127.0.0.1');
    expect(change!.actor.type).toBe('session');
    expect(change!.actor.id).toMatch(/^cs_/);
    expect(signOut!.actor.type).toBe('session');
    expect(signOut!.actor.id).not.toBe(change!.actor.id);
    // Newest first, by time too.
    expect([...all].sort((a, b) => Date.parse(b.at) - Date.parse(a.at)).map((e) => e.id)).toEqual(all.map((e) => e.id));
  });

  it('when an application is updated, its secret read and rotated, and it is deleted, then one entry each, with the key as actor', async () => {
    const carol = await stack.createAccount('carol');
    const key = await json(await stack.request(carol, 'POST', '/v1/api-keys', { name: 'deployer', scope: 'full' }));
    const headers = { authorization: `Bearer ${key.key}` };
    const appId = await stack.newApplication(carol.id);
    const path = `/rest/v1/applications/${appId}`;
    expect((await stack.request(undefined, 'PUT', path, { name: 'renamed' }, headers)).status).toBe(200);
    expect((await stack.request(undefined, 'GET', `${path}/secret`, undefined, headers)).status).toBe(200);
    expect((await stack.request(undefined, 'POST', `${path}/secret/rotate`, undefined, headers)).status).toBe(200);
    // A failed change (another account's application) writes nothing.
    expect((await stack.request(bob, 'PUT', path, { name: 'not yours' })).status).toBe(404);
    expect((await stack.request(undefined, 'DELETE', path, undefined, headers)).status).toBe(200);
    const log = await events(carol);
    expect(log.map((e) => e.action)).toEqual([
      'application.delete',
      'application.secret.rotate',
      'application.secret.read',
      'application.update',
      'application.create',
      'api-key.create',
    ]);
    for (const e of log.slice(0, 4)) expect(e.actor).toEqual({ type: 'key', id: key.id, name: 'deployer' });
    expect(log[0]!.target).toBe(`${stack.baseUrl}${path}`);
    expect(log[1]!.target).toBe(`${stack.baseUrl}${path}/secret`);
  });

  it('when an application is created and its addresses claimed, moved and released, then one entry each naming the address', async () => {
    const dave = await stack.createAccount('dave');
    await addNumbers(stack.applications.app.orm.em.fork(), ['+14075559900'], { smsEnabled: true });
    const key = await json(await stack.request(dave, 'POST', '/v1/api-keys', { name: 'provisioner', scope: 'full' }));
    const headers = { authorization: `Bearer ${key.key}` };
    const send = (method: string, path: string, body?: unknown) =>
      stack.request(undefined, method, path, body, headers);
    const created = await send('POST', '/rest/v1/applications', { name: 'ivr', voiceUrl: 'https://example.com/v' });
    expect(created.status).toBe(200);
    const appHref = (await json(created)).href as string;
    const other = await send('POST', '/v1/applications', { name: 'other', voiceUrl: 'https://example.com/o' });
    const otherHref = (await json(other)).href as string;
    const appPath = new URL(appHref).pathname;
    const claimed: string[] = [];
    for (const body of [
      { type: 'number', number: '+14075559900' },
      { type: 'token', channel: 'voice' },
      { type: 'sip' },
    ]) {
      const res = await send('POST', `${appPath}/addresses`, body);
      expect(res.status, JSON.stringify(body)).toBe(200);
      claimed.push((await json(res)).href as string);
    }
    // A claim that fails (the number is taken now) writes nothing.
    expect((await send('POST', `${appPath}/addresses`, { type: 'number', number: '+14075559900' })).status).toBe(409);
    const moved = await send('POST', `${new URL(otherHref).pathname}/addresses/number/+14075559900`);
    expect(moved.status).toBe(200);
    const movedHref = (await json(moved)).href as string;
    const token = claimed[1]!;
    expect((await send('DELETE', new URL(token).pathname)).status).toBe(200);

    const log = await events(dave);
    // A session token is a credential: the log names its application, never the token.
    const maskedToken = token.replace(/\/addresses\/token\/[^/]+$/, '/addresses/token/***');
    expect(maskedToken).not.toBe(token);
    expect(log.map((e) => `${e.action} ${e.target}`)).toEqual([
      `address.release ${maskedToken}`,
      `address.move ${movedHref}`,
      `address.claim ${claimed[2]}`,
      `address.claim ${maskedToken}`,
      `address.claim ${claimed[0]}`,
      `application.create ${otherHref}`,
      `application.create ${appHref}`,
      `api-key.create ${key.href}`,
    ]);
    for (const e of log.slice(0, 7)) {
      expect(e.actor).toEqual({ type: 'key', id: key.id, name: 'provisioner' });
      expect(e.outcome).toBe('success');
      expect(e.ip).toBe('127.0.0.1');
    }
    expect(log[6]!.requestId).toBe(created.headers.get('x-request-id'));
    expect(log[1]!.requestId).toBe(moved.headers.get('x-request-id'));
  });

  it('when HTTP Basic sign-ins fail, then the named account records each failure once per window, whichever replica and however often', async () => {
    const frank = await stack.createAccount('frank');
    const key = await json(await stack.request(frank, 'POST', '/v1/api-keys', { name: 'reader', scope: 'read' }));
    const wrongKey = `sbk_${'A'.repeat(43)}`;
    const basic = (u: string, p: string) => ({
      authorization: `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`,
    });
    const get = (headers: Record<string, string>, base = stack.baseUrl) =>
      fetch(`${base}/v1/applications`, { headers });
    const recorded = async () => {
      const text = await (await fetch(`http://127.0.0.1:${stack.applications.opsPort}/metrics`)).text();
      return metricSum(text, 'applications_grpc_server_handled_total', { method: 'RecordAuditEvent' });
    };
    const before = await recorded();
    const password = await get(basic(frank.username, 'wrong-password'));
    expect(password.status).toBe(401);
    const keyFailure = await get(basic(key.id, wrongKey));
    expect(keyFailure.status).toBe(401);
    // Neither a Bearer key that matches nothing nor an unknown username names an account.
    expect((await get({ authorization: `Bearer ${wrongKey}` })).status).toBe(401);
    expect((await get(basic('nobody-here', 'wrong-password'))).status).toBe(401);
    await waitFor(async () => (await recorded()) - before === 3, { what: 'three failures recorded' });
    // A flood of guesses: the password is locked out after AUTH_MAX_FAILURES (5), and refusals
    // during the lockout are not recorded; the key id has no lockout. Whichever replica calls, the
    // log keeps one entry per credential and address in the window (below).
    const flood: Response[] = [];
    for (let i = 0; i < 8; i++)
      flood.push(await get(basic(frank.username, 'wrong-password')), await get(basic(key.id, wrongKey)));
    expect(flood.every((r) => r.status === 401 || r.status === 429)).toBe(true);
    expect(flood.some((r) => r.status === 429)).toBe(true);
    const checked = flood.filter((r) => r.status === 401).length;
    await waitFor(async () => (await recorded()) - before === 3 + checked, { what: 'the checked failures' });
    const other = await stack.startGateway();
    // The username's lockout holds on the other replica too (counted by the applications service):
    // refused, nothing checked, nothing recorded; the key id has no lockout.
    expect((await get(basic(frank.username, 'another-wrong-one'), other.baseUrl)).status).toBe(429);
    expect((await get(basic(key.id, wrongKey), other.baseUrl)).status).toBe(401);
    await waitFor(async () => (await recorded()) - before === 4 + checked, { what: "the other replica's call" });

    const log = await events({ authorization: `Bearer ${key.key}` });
    expect(log.map((e) => `${e.action} ${e.outcome}`)).toEqual([
      'api-key.sign-in failure',
      'password.sign-in failure',
      'api-key.create success',
    ]);
    expect(log[0]).toMatchObject({
      actor: { type: 'key', id: key.id, name: 'reader' },
      target: key.href,
      ip: '127.0.0.1',
      requestId: keyFailure.headers.get('x-request-id'),
    });
    expect(log[1]).toMatchObject({
      actor: { type: 'password', id: frank.id, name: frank.username },
      target: null,
      ip: '127.0.0.1',
      requestId: password.headers.get('x-request-id'),
    });
  });

  it('when filtered by action, actor or time, or paged, then only the matching entries come back, in order', async () => {
    const all = await events(alice);
    expect((await events(alice, '?action=api-key.create')).map((e) => e.id)).toEqual(
      all.filter((e) => e.action === 'api-key.create').map((e) => e.id),
    );
    const keyActor = all.find((e) => e.actor.type === 'key')!.actor.id;
    expect((await events(alice, `?actor=${keyActor}`)).map((e) => e.action)).toEqual(['api-key.revoke']);
    const oldest = all[all.length - 1]!;
    expect(await events(alice, `?until=${encodeURIComponent(oldest.at)}`)).toEqual([]);
    expect((await events(alice, `?since=${encodeURIComponent(oldest.at)}`)).length).toBe(all.length);
    expect((await stack.request(alice, 'GET', '/v1/audit-events?since=yesterday')).status).toBe(400);
    const paged = await stack.listAll<Entry>(alice, '/v1/audit-events?limit=3');
    expect(paged.map((e) => e.id)).toEqual(all.map((e) => e.id));
  });

  it("when another account reads the log, then it sees none of this account's entries; a read key reads its own account's", async () => {
    const bobs = await events(bob);
    expect(bobs).toEqual([]);
    const read = await json(await stack.request(bob, 'POST', '/v1/api-keys', { name: 'auditor', scope: 'read' }));
    const withKey = await events({ authorization: `Bearer ${read.key}` });
    expect(withKey.map((e) => e.action)).toEqual(['api-key.create']);
    expect(withKey[0]!.target).toBe(read.href);
  });

  it('when entries are in the database, then each belongs to one account and the key itself is never in them', async () => {
    const rows = await queryDatabase<{ account_id: string }>(
      stack.databaseUrl,
      'select account_id::text from applications.audit_events',
    );
    expect(rows.every((r) => /^\d+$/.test(r.account_id))).toBe(true);
    expect(rows.filter((r) => r.account_id === bob.id)).toHaveLength(1);
    expect(
      JSON.stringify(await queryDatabase(stack.databaseUrl, 'select * from applications.audit_events')),
    ).not.toMatch(/sbk_/);
  });
});
