// Per-tenant limits through the real gateway (two replicas), applications and webhooks services,
// Postgres and NATS: the per-account launch budget, the cap on tokens per application, an inbound
// work queue full of undelivered events answered 503, idempotent answers sealed at rest, and the cap on stored keys.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayApp } from '@switchboard/gateway';
import { SecretBox } from '@switchboard/security';
import { STREAMS } from '@switchboard/events';
import { queryDatabase, startServices, type Services, type TestAccount, type JsonBody } from '../../../test/support';

const RATE = 5;
const BURST = 10;
let stack: Services<{ gateway: true; webhooks: true }>;
let second: { app: GatewayApp; baseUrl: string };

beforeAll(async () => {
  stack = await startServices({
    gateway: true,
    webhooks: true,
    env: {
      DELIVERY_ALLOWED_CIDRS: '127.0.0.0/8,::1/128',
      SESSION_LAUNCH_RATE_PER_ACCOUNT: String(RATE),
      SESSION_LAUNCH_BURST_PER_ACCOUNT: String(BURST),
      APPLICATION_TOKENS_MAX: '4',
      IDEMPOTENCY_KEYS_PER_ACCOUNT: '10',
    },
  });
  // A second gateway replica in front of the same services.
  const gateway = await import('@switchboard/gateway');
  const app = gateway.createApp(gateway.loadConfig({ ...stack.env, PORT: '0' }));
  const { port } = await app.start();
  second = { app, baseUrl: `http://127.0.0.1:${port}` };
});
afterAll(async () => {
  await second?.app.stop();
  await stack?.stop();
});

const json = async (res: Response) => (await res.json()) as Record<string, JsonBody>;

async function newApplication(me: TestAccount): Promise<string> {
  const res = await stack.request(me, 'POST', '/v1/applications', {
    name: 'limits',
    voiceUrl: 'https://example.com/voice',
  });
  return String((await json(res)).href)
    .split('/')
    .pop()!;
}

async function newToken(me: TestAccount, appId: string): Promise<Response> {
  return stack.request(me, 'POST', `/v1/applications/${appId}/addresses`, { type: 'token', channel: 'voice' });
}

const tokenOf = async (res: Response) =>
  String((await json(res)).href)
    .split('/')
    .pop()!;

describe('launch volume of one account', () => {
  it('when 40 launches race over 4 tokens and 2 gateway replicas, then the account gets its burst (plus what refills meanwhile) and the rest are 429 with Retry-After', async () => {
    const me = await stack.createAccount('launch');
    const appId = await newApplication(me);
    const tokens: string[] = [];
    for (let i = 0; i < 4; i++) tokens.push(await tokenOf(await newToken(me, appId)));
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const base = i % 2 === 0 ? stack.baseUrl : second.baseUrl;
        const res = await fetch(`${base}/v1/sessions?token=${tokens[i % tokens.length]}`, { method: 'POST' });
        return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.text() };
      }),
    );
    const seconds = (Date.now() - started) / 1000;
    const accepted = answers.filter((a) => a.status === 200).length;
    const refused = answers.filter((a) => a.status === 429);
    expect(accepted).toBeGreaterThanOrEqual(BURST);
    expect(accepted).toBeLessThanOrEqual(BURST + Math.ceil(seconds * RATE) + 1);
    expect(accepted + refused.length).toBe(40);
    expect(Number(refused[0]!.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(refused[0]!.body)).toMatchObject({
      code: 'rate_limited',
      detail: expect.stringMatching(/account/),
    });
  });

  it('when an application already holds 4 tokens, then a fifth is 409 limit_exceeded and another application still gets one', async () => {
    const me = await stack.createAccount('tokens');
    const appId = await newApplication(me);
    for (let i = 0; i < 4; i++) expect((await newToken(me, appId)).status).toBe(200);
    const fifth = await newToken(me, appId);
    expect(fifth.status).toBe(409);
    expect(await json(fifth)).toMatchObject({
      code: 'limit_exceeded',
      detail: expect.stringMatching(/4 session tokens/),
    });
    expect((await newToken(me, await newApplication(me))).status).toBe(200);
  });

  it('when the inbound work queue is full of events nobody has handled yet (no dispatcher runs), then a launch is 503 saying the store is full, and no undelivered event is dropped for it', async () => {
    const me = await stack.createAccount('full');
    const token = await tokenOf(await newToken(me, await newApplication(me)));
    const info = await stack.bus.jsm.streams.info(STREAMS.events.name);
    const before = info.state.messages;
    await stack.bus.jsm.streams.update(STREAMS.events.name, { ...info.config, max_bytes: info.state.bytes + 40_000 });
    try {
      const big = { token, note: 'x'.repeat(2000), more: 'y'.repeat(2000), again: 'z'.repeat(2000) };
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 8 && !statuses.includes(503); i++) {
        last = await fetch(`${stack.baseUrl}/v1/sessions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(big),
        });
        statuses.push(last.status);
      }
      expect(statuses).toContain(503);
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(await json(last!)).toMatchObject({ code: 'unavailable', detail: expect.stringMatching(/full/) });
      const after = await stack.bus.jsm.streams.info(STREAMS.events.name);
      expect(after.state.first_seq).toBe(info.state.first_seq);
      expect(after.state.messages).toBe(before + statuses.filter((s) => s === 200).length);
    } finally {
      await stack.bus.jsm.streams.update(STREAMS.events.name, info.config);
    }
  });
});

describe('idempotent answers at rest', () => {
  const hook = { event: 'smsdlr', resource: 'sms', targetUrl: 'https://example.com/dlr' };
  const post = (me: TestAccount, path: string, body: unknown, key: string) =>
    stack.request(me, 'POST', path, body, { 'Idempotency-Key': key });

  it('when a subscription is created, its secret and an application secret rotated and a token claimed with keys, then no secret or token is in the idempotency tables in clear, and each replay answers the same', async () => {
    const me = await stack.createAccount('sealed');
    const appId = await newApplication(me);
    const calls: [string, unknown, string][] = [
      ['/v1/webhooks', hook, 'create'],
      [`/v1/applications/${appId}/secret/rotate`, undefined, 'rotate-app'],
      [`/v1/applications/${appId}/addresses`, { type: 'token', channel: 'voice' }, 'claim'],
    ];
    const firsts: string[] = [];
    for (const [path, body, key] of calls) {
      const res = await post(me, path, body, key);
      expect(res.status).toBe(200);
      firsts.push(await res.text());
    }
    const hookPath = new URL(JSON.parse(firsts[0]!).href).pathname;
    const rotated = await post(me, `${hookPath}/secret/rotate`, undefined, 'rotate-hook');
    firsts.push(await rotated.text());
    const clear = [
      JSON.parse(firsts[0]!).secret,
      JSON.parse(firsts[1]!).secret,
      await tokenOf(new Response(firsts[2]!)),
      JSON.parse(firsts[3]!).secret,
    ] as string[];
    for (const c of clear) expect(c).toMatch(/.{20,}/);

    const rows = await queryDatabase<{ schema: string; key: string; response: unknown }>(
      stack.databaseUrl,
      `select 'applications' as schema, key, response from "applications".idempotency_keys where account_id = $1
       union all select 'webhooks', key, response from "webhooks".idempotency_keys where account_id = $1`,
      [me.id],
    );
    expect(rows).toHaveLength(4);
    const dump = JSON.stringify(rows);
    for (const c of clear) expect(dump).not.toContain(c);
    // Sealed for its own account and key: the ciphertext does not open under another key.
    const box = SecretBox.fromText(stack.env.SECRETS_KEY!);
    const create = rows.find((r) => r.key === 'create')!.response as { sealed: string };
    expect(JSON.parse(box.open(create.sealed, `idempotency:${me.id}:create`)).answer.secret).toBe(clear[0]);
    expect(() => box.open(create.sealed, `idempotency:${me.id}:claim`)).toThrow();

    const replays = [];
    for (const [path, body, key] of calls) replays.push(await (await post(me, path, body, key)).text());
    replays.push(await (await post(me, `${hookPath}/secret/rotate`, undefined, 'rotate-hook')).text());
    expect(replays).toEqual(firsts);
  });

  it('when a rotation is replayed after a later rotation, then it answers the secret it made (the first answer), not the current one', async () => {
    const me = await stack.createAccount('replay');
    const appId = await newApplication(me);
    const path = `/v1/applications/${appId}/secret/rotate`;
    const first = await json(await post(me, path, undefined, 'rotate-a'));
    const later = await json(await post(me, path, undefined, 'rotate-b'));
    expect(later.secret).not.toBe(first.secret);
    expect(await json(await post(me, path, undefined, 'rotate-a'))).toEqual(first);
  });

  it('when an account uses more keys than IDEMPOTENCY_KEYS_PER_ACCOUNT, then only its newest are kept and a repeat of an evicted key does the work again', async () => {
    const me = await stack.createAccount('cap');
    for (let i = 0; i < 13; i++)
      expect(
        (await post(me, '/v1/applications', { name: `cap-${i}`, voiceUrl: 'https://example.com/voice' }, `k${i}`))
          .status,
      ).toBe(200);
    const keys = await queryDatabase<{ key: string }>(
      stack.databaseUrl,
      `select key from "applications".idempotency_keys where account_id = $1 order by created_at`,
      [me.id],
    );
    expect(keys.map((k) => k.key)).toEqual(Array.from({ length: 10 }, (_, i) => `k${i + 3}`));
    expect(
      (await post(me, '/v1/applications', { name: 'cap-0', voiceUrl: 'https://example.com/voice' }, 'k0')).status,
    ).toBe(200);
    const apps = (await json(await stack.request(me, 'GET', '/v1/applications'))) as unknown as unknown[];
    expect(apps).toHaveLength(14);
  });
});
