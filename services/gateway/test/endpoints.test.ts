// Operating your endpoints (docs/api.md#custom-headers): custom headers per subscription and the event catalogue, through the real gateway,
// webhooks and applications services, a dispatcher, Postgres, NATS and a loopback receiver.
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SecretBox } from '@switchboard/security';
import {
  queryDatabase,
  randomName,
  useDeliveryStack,
  waitFor,
  type Receiver,
  type Services,
  type TestAccount,
  type JsonBody,
} from '../../../test/support';
import { TEST_DISPATCHER_ENV } from '../../dispatcher/test/harness';

let stack: Services<{ gateway: true; webhooks: true; dispatcher: true }>;
let rx: Receiver;

useDeliveryStack({ gateway: true, dispatcher: true, dispatcherEnv: TEST_DISPATCHER_ENV }, (f) => ({ stack, rx } = f));

const json = async (res: Response) => (await res.json()) as Record<string, JsonBody>;
const path = (href: string) => new URL(href).pathname;

async function problem(res: Response, status: number): Promise<Array<{ field: string; message: string }>> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  return ((await json(res)).errors ?? []) as Array<{ field: string; message: string }>;
}

function dlr(accountId: string) {
  return {
    id: randomName('evt'),
    accountId,
    resource: 'sms',
    timestamp: '2025-03-01T10:00:00.000Z',
    data: { messageId: 'm-1', status: 'delivered' },
  };
}

describe('custom headers', () => {
  let me: TestAccount;
  beforeAll(async () => {
    me = await stack.createAccount('hdr');
  });

  it('when a subscription has headers, then every delivery carries them; reads show every value as ***, each is sealed at rest for its own field, and delivery records never hold them', async () => {
    const target = rx.url(`/headers/${me.id}`);
    const res = await stack.request(me, 'POST', '/v1/webhooks', {
      event: 'smsdlr',
      resource: 'sms',
      targetUrl: target,
      headers: { Authorization: 'Bearer top-secret-token', 'X-Team': 'billing', 'X-Api-Key': 'key-top-secret' },
    });
    expect(res.status).toBe(200);
    const { href } = await json(res);

    const read = await json(await stack.request(me, 'GET', path(href)));
    expect(read.headers).toEqual({ Authorization: '***', 'X-Team': '***', 'X-Api-Key': '***' });
    const listed = (await (await stack.request(me, 'GET', '/v1/webhooks')).json()) as Array<Record<string, JsonBody>>;
    expect(listed[0]!.headers).toEqual({ Authorization: '***', 'X-Team': '***', 'X-Api-Key': '***' });

    await stack.publish('sms.dlr', dlr(me.id));
    const [got] = await waitFor(
      () => (rx.at(`/headers/${me.id}`).length > 0 ? rx.at(`/headers/${me.id}`) : undefined),
      { what: 'delivery' },
    );
    expect(got!.headers.authorization).toBe('Bearer top-secret-token');
    // At rest every value is sealed with SECRETS_KEY for its subscription and header name.
    const id = href.split('/').pop()!;
    const [stored] = await queryDatabase<{ headers: Record<string, string> }>(
      stack.databaseUrl,
      `select headers from "webhooks".subscriptions where id = $1`,
      [id],
    );
    for (const v of Object.values(stored!.headers)) expect(v).toMatch(/^enc:v1:/);
    const box = SecretBox.fromText(stack.env.SECRETS_KEY!);
    expect(box.open(stored!.headers['X-Api-Key']!, `${id}:header:x-api-key`)).toBe('key-top-secret');
    // A value copied into another header's field does not open there.
    expect(() => box.open(stored!.headers['X-Api-Key']!, `${id}:header:authorization`)).toThrow(/SECRETS_KEY/);
    expect(got!.headers['x-team']).toBe('billing');
    expect(got!.headers['x-api-key']).toBe('key-top-secret');
    expect(got!.headers['content-type']).toBe('application/json');
    expect(got!.headers['webhook-signature']).toMatch(/^v1,/);

    const deliveries = await waitFor(async () => {
      const list = (await (await stack.request(me, 'GET', `${path(href)}/deliveries`)).json()) as unknown[];
      return list.length > 0 ? list : undefined;
    });
    expect(JSON.stringify(deliveries)).not.toContain('top-secret-token');
    const rows = await queryDatabase(
      stack.databaseUrl,
      `select * from "webhooks".deliveries where subscription_id = $1`,
      [href.split('/').pop()],
    );
    expect(JSON.stringify(rows)).not.toContain('top-secret');

    // PUT replaces the whole set; the next delivery carries the new one.
    expect((await stack.request(me, 'PUT', path(href), { headers: { 'X-Team': 'ops' } })).status).toBe(200);
    expect((await json(await stack.request(me, 'GET', path(href)))).headers).toEqual({ 'X-Team': '***' });
    await stack.publish('sms.dlr', dlr(me.id));
    await waitFor(() => rx.at(`/headers/${me.id}`).length >= 2, { what: 'second delivery' });
    const second = rx.at(`/headers/${me.id}`)[1]!;
    expect(second.headers['x-team']).toBe('ops');
    expect(second.headers.authorization).toBeUndefined();

    expect((await stack.request(me, 'PUT', path(href), { headers: {} })).status).toBe(200);
    expect((await json(await stack.request(me, 'GET', path(href)))).headers).toBeUndefined();
  });

  it('when a header is not allowed, then 400 naming it, and nothing is stored', async () => {
    const base = { event: 'smsdlr', resource: 'sms', targetUrl: 'https://example.com/h' };
    for (const name of [
      'Host',
      'Connection',
      'Transfer-Encoding',
      'Content-Type',
      'content-length',
      'Webhook-Id',
      'webhook-signature',
      'Upgrade',
      'TE',
      'Bad Name',
      'x:y',
    ]) {
      const errors = await problem(
        await stack.request(me, 'POST', '/v1/webhooks', { ...base, headers: { [name]: 'v' } }),
        400,
      );
      expect(
        errors.map((e) => e.field),
        name,
      ).toContain(`headers.${name}`);
    }
    const values = await problem(
      await stack.request(me, 'POST', '/v1/webhooks', { ...base, headers: { 'X-A': 'line\r\nX-Injected: 1' } }),
      400,
    );
    expect(values[0]!.field).toBe('headers.X-A');
    expect(
      (await problem(await stack.request(me, 'POST', '/v1/webhooks', { ...base, headers: { 'X-A': 1 } }), 400))[0]!
        .field,
    ).toBe('headers');
    expect(
      (await problem(await stack.request(me, 'POST', '/v1/webhooks', { ...base, headers: ['X-A'] }), 400))[0]!.field,
    ).toBe('headers');
    expect(
      (
        await problem(
          await stack.request(me, 'POST', '/v1/webhooks', { ...base, headers: { 'X-A': '1', 'x-a': '2' } }),
          400,
        )
      )[0]!.field,
    ).toBe('headers.x-a');
    const eleven = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`X-H${i}`, 'v']));
    const many = await problem(await stack.request(me, 'POST', '/v1/webhooks', { ...base, headers: eleven }), 400);
    expect(many[0]).toEqual({ field: 'headers', message: 'must hold at most 10 headers' });
    const ten = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`X-H${i}`, 'v']));
    const ok = await stack.request(me, 'POST', '/v1/webhooks', { ...base, headers: ten });
    expect(ok.status).toBe(200);
    const { href } = await json(ok);
    // A PUT with a refused header changes nothing.
    await problem(await stack.request(me, 'PUT', path(href), { headers: { Host: 'evil.example' } }), 400);
    expect(Object.keys((await json(await stack.request(me, 'GET', path(href)))).headers)).toHaveLength(10);
  });
});

describe('GET /v1/event-types', () => {
  it('when read, then every subscribable event is listed with its resources and the JSON Schema of its data, generated from the schemas the dispatcher validates with', async () => {
    const me = await stack.createAccount('types');
    const res = await stack.request(me, 'GET', '/v1/event-types');
    expect(res.status).toBe(200);
    const types = (await res.json()) as Array<{
      name: string;
      description: string;
      resources: string[];
      applicationLevel: boolean;
      data: Record<string, JsonBody>;
    }>;
    expect(types.map((t) => t.name)).toEqual([
      'smsdlr',
      'cdrCreated',
      'cdrRated',
      'webhookDisabled',
      'alert',
      'sessionStatus',
      'alertTriggered',
      'usageTriggered',
    ]);
    for (const t of types) expect(t.description.length, t.name).toBeGreaterThan(10);
    const byName = Object.fromEntries(types.map((t) => [t.name, t]));
    expect(byName.smsdlr!.resources).toEqual(['sms', 'all']);
    expect(byName.cdrCreated!.resources).toEqual(['call', 'sms', 'transcription', 'all']);
    expect(byName.cdrCreated!.data.type).toBe('object');
    expect(byName.cdrRated).toMatchObject({ applicationLevel: true });
    expect(byName.webhookDisabled).toMatchObject({ resources: ['all'], applicationLevel: false });
    expect(byName.alertTriggered).toMatchObject({ resources: ['all'], applicationLevel: true });
    expect(byName.usageTriggered).toMatchObject({ resources: ['all'], applicationLevel: false });
    expect(byName.alert).toMatchObject({ resources: ['all'], applicationLevel: true });
    expect(byName.sessionStatus).toMatchObject({ resources: ['all'], applicationLevel: true });
    // The same schema the dispatcher's validation uses: the event type's data schema accepts what it accepts.
    const { smsDlrEventSchema } = await import('../../dispatcher/src/events/schemas');
    const { $schema: _, ...generated } = z.toJSONSchema(smsDlrEventSchema.shape.data, {
      io: 'input',
      unrepresentable: 'any',
    }) as Record<string, unknown>;
    expect(byName.smsdlr!.data).toMatchObject(JSON.parse(JSON.stringify(generated)));
    expect(byName.smsdlr!.data.description).toMatch(/delivery report/);
    expect((await stack.request(undefined, 'GET', '/v1/event-types')).status).toBe(401);
  });
});
