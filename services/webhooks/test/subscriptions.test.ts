import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBJECTS } from '@switchboard/events';
import { waitFor } from '../../../test/support';
import { codeOf, fieldErrorsOf, startHarness, watch, type Harness } from './harness';

let h: Harness;
let bob: string;
let bobApp: string;

beforeAll(async () => {
  h = await startHarness();
  bob = await h.newAccount();
  bobApp = await h.newApplication(bob);
});
afterAll(async () => h?.stop());

const valid = { event: 'smsdlr', resource: 'sms', targetUrl: 'https://example.com/hook' };
const client = () => h.webhooks.client;

/** A new account with one application: each test gets its own, so the limits of docs/api-rules.md#limits never interfere. */
async function fresh(): Promise<{ acct: string; app: string }> {
  const acct = await h.newAccount();
  return { acct, app: await h.newApplication(acct) };
}

async function create(accountId: string, fields: Record<string, unknown> = {}, applicationId = '') {
  const res = await client().createSubscription({ accountId, applicationId, ...valid, ...fields });
  return res.subscription!;
}

describe('creating a subscription', () => {
  it('when created at account level with every field, then it is stored as sent with a whsec_ secret and health at zero', async () => {
    const me = await fresh();
    const res = await client().createSubscription({
      accountId: me.acct,
      name: ' Delivery reports ',
      event: 'SMSDLR',
      resource: 'transcription, sms,call,sms',
      targetUrl: 'https://example.com/dlr',
      payloadJson: '{"team":"ops","n":[1,2]}',
      enabled: false,
    });
    expect(res.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(res.secret.slice(6), 'base64')).toHaveLength(32);
    const s = res.subscription!;
    expect(s).toMatchObject({
      accountId: me.acct,
      applicationId: '',
      name: 'Delivery reports',
      event: 'smsdlr',
      resource: 'call,sms,transcription',
      targetUrl: 'https://example.com/dlr',
      payloadJson: '{"team":"ops","n":[1,2]}',
      enabled: false,
      consecutiveFailures: 0,
    });
    expect(s.id).toMatch(/^wh_[0-9a-f]{24}$/);
    expect(s.lastAttemptAt).toBeUndefined();
    expect(s.lastStatus).toBeUndefined();
    expect(s.disabledReason).toBeUndefined();
    const { subscription } = await client().getSubscription({ accountId: me.acct, id: s.id });
    expect(subscription).toEqual(s);
  });

  it('when optional fields are left out, then enabled defaults to true and name and payload are absent', async () => {
    const me = await fresh();
    const s = await create(me.acct);
    expect(s.enabled).toBe(true);
    expect(s.name).toBeUndefined();
    expect(s.payloadJson).toBeUndefined();
  });

  it('when the payload has keys in a given order, then it reads back in that order', async () => {
    const me = await fresh();
    const s = await create(me.acct, { payloadJson: '{"z":1,"a":{"y":2,"b":3}}' });
    expect(s.payloadJson).toBe('{"z":1,"a":{"y":2,"b":3}}');
  });

  it('when the payload holds NUL characters, lone surrogates or deep nesting, then it is stored and reads back unchanged', async () => {
    const me = await fresh();
    const payloadJson = JSON.stringify({
      nul: 'a\u0000b',
      lone: '\ud800',
      deep: JSON.parse('['.repeat(100) + ']'.repeat(100)),
    });
    const s = await create(me.acct, { payloadJson });
    expect(s.payloadJson).toBe(payloadJson);
    expect((await client().getSubscription({ accountId: me.acct, id: s.id })).subscription!.payloadJson).toBe(
      payloadJson,
    );
  });

  it('when created for an own application, then it is application-level and readable by id alone', async () => {
    const me = await fresh();
    const s = await create(me.acct, { resource: 'all' }, me.app);
    expect(s.applicationId).toBe(me.app);
    expect((await client().getSubscription({ accountId: me.acct, id: s.id })).subscription!.id).toBe(s.id);
    expect(
      (await client().getSubscription({ accountId: me.acct, id: s.id, applicationId: me.app })).subscription!.id,
    ).toBe(s.id);
  });

  it('when created for an application of another account or an unknown one, then not_found', async () => {
    const me = await fresh();
    expect(await codeOf(create(me.acct, {}, bobApp))).toBe('not_found');
    expect(await codeOf(create(me.acct, {}, 'ffffffffffffffffffffffff'))).toBe('not_found');
    expect(await codeOf(create(me.acct, {}, '../../etc'))).toBe('not_found');
  });

  it('when a subscription is created, then webhooks.changed announces it', async () => {
    const me = await fresh();
    const w = watch(h.bus, SUBJECTS.webhooksChanged);
    try {
      const s = await create(me.acct, {}, me.app);
      const m = await waitFor(() => w.messages.find((x) => x.subscriptionId === s.id), { what: 'webhooks.changed' });
      expect(m).toEqual({ subscriptionId: s.id, accountId: me.acct, applicationId: me.app });
    } finally {
      w.stop();
    }
  });
});

describe('validation on create', () => {
  it('when required fields are missing, then invalid_request lists each by its API name', async () => {
    const me = await fresh();
    const r = await fieldErrorsOf(client().createSubscription({ accountId: me.acct }));
    expect(r.code).toBe('invalid_request');
    expect(r.fields).toEqual(['event', 'resource', 'targetUrl']);
  });

  it('when event is not one of smsdlr, cdrCreated, cdrRated, then invalid_request on event', async () => {
    const me = await fresh();
    for (const event of ['sms', 'cdr', '', 'smsdlr,cdrRated']) {
      expect((await fieldErrorsOf(create(me.acct, { event }))).fields, event).toEqual(['event']);
    }
  });

  it('when resource is empty or holds an unknown value, then invalid_request on resource', async () => {
    const me = await fresh();
    for (const resource of ['', 'video', 'call;sms', 'call,fax']) {
      expect((await fieldErrorsOf(create(me.acct, { resource }))).fields, resource).toEqual(['resource']);
    }
  });

  it('when targetUrl is not an absolute http(s) URL, too long, or carries credentials, then invalid_request on targetUrl', async () => {
    const me = await fresh();
    for (const targetUrl of [
      'example.com/hook',
      '/hook',
      'ftp://example.com/',
      'mailto:a@example.com',
      'https://u:p@example.com/',
      `https://example.com/${'x'.repeat(2050)}`,
    ]) {
      expect((await fieldErrorsOf(create(me.acct, { targetUrl }))).fields, targetUrl).toEqual(['targetUrl']);
    }
  });

  it('when targetUrl is a literal private address not allow-listed, then invalid_request on targetUrl', async () => {
    const me = await fresh();
    for (const targetUrl of [
      'http://10.0.0.1/x',
      'http://169.254.169.254/latest/meta-data',
      'http://[fd00::1]/',
      'http://0xa9fea9fe/',
      'http://[::ffff:192.168.0.1]/',
      'http://172.16.5.4/',
    ]) {
      const r = await fieldErrorsOf(create(me.acct, { targetUrl }));
      expect(r.fields, targetUrl).toEqual(['targetUrl']);
      expect(r.messages[0]).toMatch(/private/);
    }
  });

  it('when targetUrl is loopback and the test allow-list covers it, then it is accepted', async () => {
    const me = await fresh();
    expect((await create(me.acct, { targetUrl: 'http://127.0.0.1:4567/hook' })).targetUrl).toBe(
      'http://127.0.0.1:4567/hook',
    );
    expect((await create(me.acct, { targetUrl: 'http://[::1]:4567/hook' })).targetUrl).toBe('http://[::1]:4567/hook');
  });

  it('when payload is not a JSON object, then invalid_request on payload', async () => {
    const me = await fresh();
    for (const payloadJson of ['[]', '"text"', '42', 'null', '{not json']) {
      expect((await fieldErrorsOf(create(me.acct, { payloadJson }))).fields, payloadJson).toEqual(['payload']);
    }
  });

  it('when name is longer than 255 characters or has control characters, then invalid_request on name', async () => {
    const me = await fresh();
    expect((await fieldErrorsOf(create(me.acct, { name: 'n'.repeat(256) }))).fields).toEqual(['name']);
    expect((await fieldErrorsOf(create(me.acct, { name: 'a\u0007b' }))).fields).toEqual(['name']);
  });

  it('when several fields are wrong, then every error is reported at once', async () => {
    const me = await fresh();
    const r = await fieldErrorsOf(create(me.acct, { event: 'x', resource: 'y', targetUrl: 'z', payloadJson: '1' }));
    expect(r.fields).toEqual(['event', 'resource', 'targetUrl', 'payload']);
  });

  it('when the account id is missing, then invalid_request (never an internal error)', async () => {
    expect(await codeOf(client().createSubscription({ ...valid }))).toBe('invalid_request');
    expect(await codeOf(client().getSubscription({ id: 'wh_000000000000000000000000' }))).toBe('invalid_request');
  });
});

describe('reading and tenant isolation', () => {
  it('when another account asks for a subscription by id, on any RPC, then not_found', async () => {
    const me = await fresh();
    const s = await create(me.acct);
    const a = await create(me.acct, {}, me.app);
    for (const id of [s.id, a.id]) {
      expect(await codeOf(client().getSubscription({ accountId: bob, id }))).toBe('not_found');
      expect(await codeOf(client().updateSubscription({ accountId: bob, id, enabled: false }))).toBe('not_found');
      expect(await codeOf(client().deleteSubscription({ accountId: bob, id }))).toBe('not_found');
      expect(await codeOf(client().getSecret({ accountId: bob, id }))).toBe('not_found');
      expect(await codeOf(client().rotateSecret({ accountId: bob, id }))).toBe('not_found');
      expect(await codeOf(client().listDeliveries({ accountId: bob, subscriptionId: id }))).toBe('not_found');
    }
    // Still there for its owner.
    expect((await client().getSubscription({ accountId: me.acct, id: s.id })).subscription!.enabled).toBe(true);
  });

  it('when an id is malformed or unknown, then not_found', async () => {
    const me = await fresh();
    for (const id of ['', 'x', 'wh_zzz', 'wh_000000000000000000000000', "wh_'; drop table"]) {
      expect(await codeOf(client().getSubscription({ accountId: me.acct, id })), id).toBe('not_found');
    }
  });

  it('when an application-scoped read names another application, or an account-level subscription, then not_found', async () => {
    const me = await fresh();
    const otherApp = await h.newApplication(me.acct);
    const appSub = await create(me.acct, {}, me.app);
    const acctSub = await create(me.acct);
    expect(await codeOf(client().getSubscription({ accountId: me.acct, id: appSub.id, applicationId: otherApp }))).toBe(
      'not_found',
    );
    expect(await codeOf(client().getSubscription({ accountId: me.acct, id: acctSub.id, applicationId: me.app }))).toBe(
      'not_found',
    );
    expect(
      await codeOf(
        client().updateSubscription({ accountId: me.acct, id: appSub.id, applicationId: otherApp, enabled: false }),
      ),
    ).toBe('not_found');
    expect(
      await codeOf(client().deleteSubscription({ accountId: me.acct, id: appSub.id, applicationId: otherApp })),
    ).toBe('not_found');
  });
});

describe('listing', () => {
  it('when listing account-level and application-level subscriptions, then each list holds only its level, oldest first', async () => {
    const acct = await h.newAccount();
    const app = await h.newApplication(acct);
    const a1 = await create(acct, { resource: 'call' });
    const a2 = await create(acct, { resource: 'sms' });
    const p1 = await create(acct, { resource: 'all' }, app);
    const accountLevel = await client().listSubscriptions({ accountId: acct });
    expect(accountLevel.subscriptions.map((s) => s.id)).toEqual([a1.id, a2.id]);
    expect(accountLevel.nextCursor).toBe('');
    const appLevel = await client().listSubscriptions({ accountId: acct, applicationId: app });
    expect(appLevel.subscriptions.map((s) => s.id)).toEqual([p1.id]);
  });

  it('when the list is paged, then cursors walk every item exactly once', async () => {
    const acct = await h.newAccount();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await create(acct)).id);
    const seen: string[] = [];
    let cursor = '';
    for (let page = 0; page < 10; page++) {
      const res = await client().listSubscriptions({ accountId: acct, limit: 2, cursor });
      seen.push(...res.subscriptions.map((s) => s.id));
      expect(res.subscriptions.length).toBeLessThanOrEqual(2);
      if (!res.nextCursor) break;
      cursor = res.nextCursor;
    }
    expect(seen).toEqual(ids);
  });

  it('when filtering by event and resource, then only matches come back; a resource filter also matches all', async () => {
    const acct = await h.newAccount();
    const call = await create(acct, { event: 'cdrCreated', resource: 'call' });
    const callSms = await create(acct, { event: 'cdrCreated', resource: 'sms,call' });
    const all = await create(acct, { event: 'cdrRated', resource: 'all' });
    const dlr = await create(acct, { event: 'smsdlr', resource: 'sms' });
    const ids = async (f: { event?: string; resource?: string }) =>
      (await client().listSubscriptions({ accountId: acct, ...f })).subscriptions.map((s) => s.id);
    expect(await ids({ event: 'cdrCreated' })).toEqual([call.id, callSms.id]);
    expect(await ids({ event: 'CDRRATED' })).toEqual([all.id]);
    expect(await ids({ resource: 'sms' })).toEqual([callSms.id, all.id, dlr.id]);
    expect(await ids({ resource: 'transcription' })).toEqual([all.id]);
    expect(await ids({ resource: 'all' })).toEqual([all.id]);
    expect(await ids({ event: 'cdrCreated', resource: 'call' })).toEqual([call.id, callSms.id]);
  });

  it('when list parameters are invalid, then invalid_request names the parameter', async () => {
    const me = await fresh();
    expect((await fieldErrorsOf(client().listSubscriptions({ accountId: me.acct, limit: 1001 }))).fields).toEqual([
      'limit',
    ]);
    expect((await fieldErrorsOf(client().listSubscriptions({ accountId: me.acct, limit: -1 }))).fields).toEqual([
      'limit',
    ]);
    expect((await fieldErrorsOf(client().listSubscriptions({ accountId: me.acct, cursor: 'bogus!' }))).fields).toEqual([
      'cursor',
    ]);
    expect((await fieldErrorsOf(client().listSubscriptions({ accountId: me.acct, event: 'nope' }))).fields).toEqual([
      'event',
    ]);
    expect((await fieldErrorsOf(client().listSubscriptions({ accountId: me.acct, resource: 'nope' }))).fields).toEqual([
      'resource',
    ]);
  });

  it("when listing the subscriptions of another account's or an unknown application, then not_found", async () => {
    const me = await fresh();
    expect(await codeOf(client().listSubscriptions({ accountId: me.acct, applicationId: bobApp }))).toBe('not_found');
    expect(
      await codeOf(client().listSubscriptions({ accountId: me.acct, applicationId: 'ffffffffffffffffffffffff' })),
    ).toBe('not_found');
  });
});

describe('updating', () => {
  it('when only some fields are sent, then only those change and updatedAt moves', async () => {
    const me = await fresh();
    const s = await create(me.acct, { name: 'keep', resource: 'call', payloadJson: '{"k":1}' });
    const { subscription: u } = await client().updateSubscription({
      accountId: me.acct,
      id: s.id,
      targetUrl: 'https://example.org/new',
      enabled: false,
    });
    expect(u).toMatchObject({
      name: 'keep',
      resource: 'call',
      payloadJson: '{"k":1}',
      event: 'smsdlr',
      targetUrl: 'https://example.org/new',
      enabled: false,
    });
    expect(Date.parse(u!.updatedAt)).toBeGreaterThan(Date.parse(s.updatedAt));
    expect(u!.createdAt).toBe(s.createdAt);
    expect((await client().getSubscription({ accountId: me.acct, id: s.id })).subscription).toEqual(u);
  });

  it('when resource, payload and name are sent, then they are validated and normalised like on create', async () => {
    const me = await fresh();
    const s = await create(me.acct);
    const { subscription: u } = await client().updateSubscription({
      accountId: me.acct,
      id: s.id,
      resource: 'SMS, call',
      payloadJson: '{"x":true}',
      name: 'renamed',
    });
    expect(u).toMatchObject({ resource: 'call,sms', payloadJson: '{"x":true}', name: 'renamed' });
    const r = await fieldErrorsOf(
      client().updateSubscription({
        accountId: me.acct,
        id: s.id,
        resource: 'nope',
        targetUrl: 'http://10.0.0.1/',
        payloadJson: '[]',
      }),
    );
    expect(r.code).toBe('invalid_request');
    expect(r.fields).toEqual(['resource', 'targetUrl', 'payload']);
  });

  it('when event is sent with a different value, then conflict; with the same value (any case), then it is fine', async () => {
    const me = await fresh();
    const s = await create(me.acct);
    expect(await codeOf(client().updateSubscription({ accountId: me.acct, id: s.id, event: 'cdrRated' }))).toBe(
      'conflict',
    );
    expect(
      await codeOf(client().updateSubscription({ accountId: me.acct, id: s.id, event: 'SmsDlr', enabled: false })),
    ).toBe('ok');
    expect(await codeOf(client().updateSubscription({ accountId: me.acct, id: s.id, event: 'bogus' }))).toBe(
      'invalid_request',
    );
    expect((await client().getSubscription({ accountId: me.acct, id: s.id })).subscription!.event).toBe('smsdlr');
  });

  it('when an application-level subscription is updated through its application, then it changes', async () => {
    const me = await fresh();
    const s = await create(me.acct, {}, me.app);
    const { subscription: u } = await client().updateSubscription({
      accountId: me.acct,
      id: s.id,
      applicationId: me.app,
      resource: 'call',
    });
    expect(u!.resource).toBe('call');
  });

  it('when a subscription is updated, then webhooks.changed announces it', async () => {
    const me = await fresh();
    const s = await create(me.acct);
    const w = watch(h.bus, SUBJECTS.webhooksChanged);
    try {
      await client().updateSubscription({ accountId: me.acct, id: s.id, enabled: false });
      await waitFor(() => w.messages.find((x) => x.subscriptionId === s.id), { what: 'webhooks.changed' });
    } finally {
      w.stop();
    }
  });
});

describe('deleting', () => {
  it('when a subscription is deleted, then it is gone for every RPC and webhooks.changed announces it', async () => {
    const me = await fresh();
    const s = await create(me.acct, {}, me.app);
    const w = watch(h.bus, SUBJECTS.webhooksChanged);
    try {
      await client().deleteSubscription({ accountId: me.acct, id: s.id, applicationId: me.app });
      await waitFor(() => w.messages.find((x) => x.subscriptionId === s.id), { what: 'webhooks.changed' });
    } finally {
      w.stop();
    }
    expect(await codeOf(client().getSubscription({ accountId: me.acct, id: s.id }))).toBe('not_found');
    expect(await codeOf(client().getSecret({ accountId: me.acct, id: s.id }))).toBe('not_found');
    expect(await codeOf(client().deleteSubscription({ accountId: me.acct, id: s.id }))).toBe('not_found');
  });
});
