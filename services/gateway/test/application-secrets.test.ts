// Per-application session secrets and fallback URLs, through the real gateway, the applications
// and webhooks services (gRPC) and Postgres: read and rotate, 404 for others, what LookupApplication hands the
// dispatcher, the secrets sealed at rest, and no secret in clear in a log line or problem body.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@switchboard/observability';
import { SecretBox } from '@switchboard/security';
import type { ApplicationsClient } from '@switchboard/proto';
import { queryDatabase, startServices, type Services, type TestAccount, type JsonBody } from '../../../test/support';
import { createApplication } from './harness';
import { secretKey, signatureHeaders } from '../../dispatcher/src/delivery/signing';

let stack: Services<{ gateway: true; webhooks: true }>;
let alice: TestAccount;
let bob: TestAccount;
let grpc: ApplicationsClient;
/** Every line the applications service and the gateway logged during the tests, at trace level. */
const logs: string[] = [];
/** Every secret the tests saw in clear. */
const seen = new Set<string>();

const capture = () =>
  new Writable({
    write(chunk: Buffer, _enc, done) {
      logs.push(chunk.toString('utf8'));
      done();
    },
  });

beforeAll(async () => {
  stack = await startServices({
    gateway: true,
    webhooks: true,
    logger: (service: string) => createLogger(service, 'trace', capture()),
  });
  [alice, bob] = await Promise.all([stack.createAccount('alice'), stack.createAccount('bob')]);
  grpc = stack.applications.client;
});
afterAll(async () => stack?.stop());

const json = async (res: Response) => (await res.json()) as Record<string, JsonBody>;

const createApp = (account: TestAccount, body: Record<string, unknown> = {}) => createApplication(stack, account, body);

async function readSecret(account: TestAccount, path: string): Promise<string> {
  const res = await stack.request(account, 'GET', path);
  expect(res.status).toBe(200);
  const body = await json(res);
  expect(Object.keys(body)).toEqual(['secret']);
  seen.add(body.secret);
  return body.secret as string;
}

async function rotate(account: TestAccount, id: string): Promise<string> {
  const res = await stack.request(account, 'POST', `/v1/applications/${id}/secret/rotate`);
  expect(res.status).toBe(200);
  const { secret } = await json(res);
  seen.add(secret);
  return secret as string;
}

/** Receiver side, written from the Standard Webhooks spec (not the dispatcher's code). */
function verifies(secret: string, headers: Record<string, string>, body: string): boolean {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key)
    .update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`)
    .digest('base64');
  const want = Buffer.from(`v1,${expected}`);
  return headers['webhook-signature']!.split(' ').some(
    (s) => s.length === want.length && timingSafeEqual(Buffer.from(s), want),
  );
}

/** Every text column of every row of the applications schema, as JSON. */
async function dumpSchema(): Promise<string> {
  const tables = await queryDatabase<{ table_name: string }>(
    stack.databaseUrl,
    `select table_name from information_schema.tables where table_schema = 'applications'`,
  );
  const parts: string[] = [];
  for (const { table_name } of tables) {
    const rows = await queryDatabase<{ row: string }>(
      stack.databaseUrl,
      `select to_jsonb(t)::text as row from applications."${table_name}" t`,
    );
    parts.push(...rows.map((r) => r.row));
  }
  return parts.join('\n');
}

describe('the session secret of an application', () => {
  it('when the owner reads it, then it is a whsec_ secret of 32 random bytes, the same under /v1 and /rest/v1, with or without trailing slash', async () => {
    const id = await createApp(alice);
    const secret = await readSecret(alice, `/v1/applications/${id}/secret`);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(await readSecret(alice, `/v1/applications/${id}/secret/`)).toBe(secret);
    expect(await readSecret(alice, `/rest/v1/applications/${id}/secret`)).toBe(secret);
    // Each application has its own.
    const other = await createApp(alice);
    expect(await readSecret(alice, `/rest/v1/applications/${other}/secret/`)).not.toBe(secret);
  });

  it('when another account or an unknown id asks, then 404 problems for read and rotate, and the secret is unchanged', async () => {
    const id = await createApp(alice);
    const secret = await readSecret(alice, `/v1/applications/${id}/secret`);
    for (const [account, path, method] of [
      [bob, `/v1/applications/${id}/secret`, 'GET'],
      [bob, `/rest/v1/applications/${id}/secret/`, 'GET'],
      [bob, `/v1/applications/${id}/secret/rotate`, 'POST'],
      [alice, `/v1/applications/${'0'.repeat(24)}/secret`, 'GET'],
      [alice, `/v1/applications/${'0'.repeat(24)}/secret/rotate`, 'POST'],
      [alice, '/v1/applications/not-an-id/secret', 'GET'],
    ] as const) {
      const res = await stack.request(account, method, path);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(JSON.stringify(await json(res))).not.toContain('whsec_');
    }
    expect(await readSecret(alice, `/v1/applications/${id}/secret`)).toBe(secret);
    expect((await stack.request(undefined, 'GET', `/v1/applications/${id}/secret`)).status).toBe(401);
    expect((await stack.request(alice, 'DELETE', `/v1/applications/${id}/secret`)).status).toBe(405);
  });

  it('when rotated, then the new secret is answered and read back, LookupApplication carries new then old, and applications.changed is published', async () => {
    const id = await createApp(alice);
    const before = await readSecret(alice, `/v1/applications/${id}/secret`);
    expect((await grpc.lookupApplication({ id })).signingSecrets).toEqual([before]);

    const changed: Record<string, unknown>[] = [];
    const sub = stack.bus.nc.subscribe('applications.changed');
    void (async () => {
      for await (const m of sub) changed.push(m.json());
    })();
    const after = await rotate(alice, id);
    expect(after).toMatch(/^whsec_/);
    expect(after).not.toBe(before);
    expect(await readSecret(alice, `/rest/v1/applications/${id}/secret`)).toBe(after);
    const lookup = await grpc.lookupApplication({ id });
    expect(lookup.application!.id).toBe(id);
    expect(lookup.signingSecrets).toEqual([after, before]);
    await expect
      .poll(() => changed.filter((c) => c.applicationId === id), { timeout: 10_000 })
      .toEqual([{ applicationId: id, accountId: alice.id }]);
    sub.unsubscribe();

    // A second rotation keeps only the secret it replaced as previous.
    const third = await rotate(alice, id);
    expect((await grpc.lookupApplication({ id })).signingSecrets).toEqual([third, after]);
  });

  it('when the previous secret is older than 24 h, then LookupApplication no longer carries it', async () => {
    const id = await createApp(alice);
    const current = await rotate(alice, id);
    await queryDatabase(
      stack.databaseUrl,
      `update applications.application_secrets set previous_expires_at = now() - interval '1 second' where application_id = $1`,
      [id],
    );
    expect((await grpc.lookupApplication({ id })).signingSecrets).toEqual([current]);
  });

  it('when the dispatcher signs with the secrets LookupApplication gives it, then the secret the owner reads verifies the signature, before and after a rotation', async () => {
    const id = await createApp(alice);
    const body = JSON.stringify({ session: { id: 's1', applicationId: id } });
    const sign = async () =>
      signatureHeaders(
        (await grpc.lookupApplication({ id })).signingSecrets.map(secretKey),
        'msg_abcdefghijklmnopqrstuvwx',
        body,
      ) as unknown as Record<string, string>;

    const old = await readSecret(alice, `/v1/applications/${id}/secret`);
    const signed = await sign();
    expect(verifies(old, signed, body)).toBe(true);
    expect(verifies(old, signed, `${body} `)).toBe(false);

    const fresh = await rotate(alice, id);
    const during = await sign();
    expect(during['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verifies(fresh, during, body)).toBe(true);
    expect(verifies(old, during, body)).toBe(true);
    const otherApp = await createApp(alice);
    expect(verifies(await readSecret(alice, `/v1/applications/${otherApp}/secret`), during, body)).toBe(false);
  });
});

describe('secrets at rest and in logs', () => {
  it('when stored, then every secret is sealed (enc:v1:) and opens with SECRETS_KEY to what the owner reads; no whsec_ anywhere in the schema', async () => {
    const id = await createApp(alice);
    const before = await readSecret(alice, `/v1/applications/${id}/secret`);
    const after = await rotate(alice, id);
    const [row] = await queryDatabase<{ secret: string; previous_secret: string }>(
      stack.databaseUrl,
      `select secret, previous_secret from applications.application_secrets where application_id = $1`,
      [id],
    );
    expect(row!.secret).toMatch(/^enc:v1:/);
    expect(row!.previous_secret).toMatch(/^enc:v1:/);
    const box = SecretBox.fromText(stack.env.SECRETS_KEY!);
    expect(box.open(row!.secret, id)).toBe(after);
    expect(box.open(row!.previous_secret, id)).toBe(before);
    // Sealed for this application only: the value does not open as another's.
    expect(() => box.open(row!.secret, `${id.slice(0, -1)}${id.endsWith('0') ? '1' : '0'}`)).toThrow(/SECRETS_KEY/);
    // Not loaded with the application row.
    const [app] = await queryDatabase<Record<string, unknown>>(
      stack.databaseUrl,
      `select * from applications.applications where id = $1`,
      [id],
    );
    expect(Object.keys(app!).some((k) => /secret/.test(k))).toBe(false);

    const dump = await dumpSchema();
    expect(dump).toContain(id);
    expect(dump).not.toContain('whsec_');
    for (const s of seen) expect(dump).not.toContain(s.slice(6));
  });

  it('when the database refuses a write of a secret, then the 500 problem is generic and the logged failure holds no secret in clear', async () => {
    const id = await createApp(alice);
    await readSecret(alice, `/v1/applications/${id}/secret`);
    await queryDatabase(
      stack.databaseUrl,
      `create function applications.refuse_secret_write() returns trigger language plpgsql as $$ begin raise exception 'forced failure for the test: %', new.secret; end $$;
       create trigger refuse_secret_write before insert or update on applications.application_secrets for each row execute function applications.refuse_secret_write();`,
    );
    try {
      const from = logs.length;
      for (const [method, path, body] of [
        ['POST', `/v1/applications/${id}/secret/rotate`, undefined],
        ['POST', '/v1/applications', { name: 'refused', voiceUrl: 'https://example.com/v' }],
      ] as const) {
        const res = await stack.request(alice, method, path, body);
        expect(res.status, `${method} ${path}`).toBe(500);
        const problem = JSON.stringify(await json(res));
        expect(problem).not.toMatch(/whsec_|enc:v1|application_secrets|forced/);
      }
      // The failures were logged with the statement and the value the database saw: sealed ones.
      const failures = logs.slice(from).join('');
      expect(failures).toMatch(/forced failure for the test: enc:v1:/);
      expect(failures).not.toContain('whsec_');
    } finally {
      await queryDatabase(
        stack.databaseUrl,
        `drop trigger refuse_secret_write on applications.application_secrets; drop function applications.refuse_secret_write();`,
      );
    }
    // The secret before the refused rotation is still the one in force.
    expect((await grpc.lookupApplication({ id })).signingSecrets).toHaveLength(1);
  });

  it('when webhook subscription secrets are created, read, rotated and their write refused, then they are sealed in the table and absent from problems', async () => {
    const res = await stack.request(alice, 'POST', '/v1/webhooks', {
      event: 'cdrCreated',
      resource: 'call',
      targetUrl: 'https://example.com/hook',
    });
    expect(res.status).toBe(200);
    const { href, secret } = await json(res);
    seen.add(secret);
    const id = String(href).split('/').pop()!;
    expect(await readSecret(alice, `/v1/webhooks/${id}/secret`)).toBe(secret);
    const rotated = await stack.request(alice, 'POST', `/v1/webhooks/${id}/secret/rotate`);
    seen.add((await json(rotated)).secret);
    const rows = await queryDatabase<{ row: string }>(
      stack.databaseUrl,
      'select to_jsonb(t)::text as row from webhooks.subscription_secrets t',
    );
    expect(rows.map((r) => r.row).join('')).toMatch(
      /"secret": "enc:v1:.*"previous_secret": "enc:v1:|"previous_secret": "enc:v1:.*"secret": "enc:v1:/,
    );
    expect(rows.map((r) => r.row).join('')).not.toContain('whsec_');

    await queryDatabase(
      stack.databaseUrl,
      `create function webhooks.refuse_secret_write() returns trigger language plpgsql as $$ begin raise exception 'forced webhooks failure: %', new.secret; end $$;
       create trigger refuse_secret_write before update on webhooks.subscription_secrets for each row execute function webhooks.refuse_secret_write();`,
    );
    try {
      const from = logs.length;
      const refused = await stack.request(alice, 'POST', `/v1/webhooks/${id}/secret/rotate`);
      expect(refused.status).toBe(500);
      expect(JSON.stringify(await json(refused))).not.toMatch(/whsec_|enc:v1|forced/);
      const failures = logs.slice(from).join('');
      expect(failures).toMatch(/forced webhooks failure: enc:v1:/);
      expect(failures).not.toContain('whsec_');
    } finally {
      await queryDatabase(
        stack.databaseUrl,
        `drop trigger refuse_secret_write on webhooks.subscription_secrets; drop function webhooks.refuse_secret_write();`,
      );
    }
  });

  it('when secrets were created, read, rotated and refused, then no log line of the services carries one in clear', () => {
    const all = logs.join('');
    expect(logs.length).toBeGreaterThan(20);
    expect(all).toContain('"rpc":"RotateApplicationSecret"');
    expect(all).toContain('"service":"webhooks"');
    expect(all).not.toContain('whsec_');
    for (const s of seen) expect(all).not.toContain(s.slice(6));
  });
});

describe('fallback URLs', () => {
  it('when set on create, then reads show them; PUT changes one and "" clears it; absent ones are not shown', async () => {
    const id = await createApp(alice, {
      voiceFallbackUrl: 'https://backup.example.com/voice',
      messagingUrl: 'https://example.com/sms',
    });
    const get = async () => json(await stack.request(alice, 'GET', `/rest/v1/applications/${id}`));
    let app = await get();
    expect(app.voiceFallbackUrl).toBe('https://backup.example.com/voice');
    expect(app).not.toHaveProperty('messagingFallbackUrl');
    const listed = (await stack.listAll(alice, '/v1/applications')).find((a) => a.id === id);
    expect(listed?.voiceFallbackUrl).toBe('https://backup.example.com/voice');

    expect(
      (
        await stack.request(alice, 'PUT', `/v1/applications/${id}`, {
          messagingFallbackUrl: 'https://backup.example.com/sms',
        })
      ).status,
    ).toBe(200);
    app = await get();
    expect(app).toMatchObject({
      voiceFallbackUrl: 'https://backup.example.com/voice',
      messagingFallbackUrl: 'https://backup.example.com/sms',
      name: 'app',
    });
    const lookup = await grpc.lookupApplication({ id });
    expect(lookup.application).toMatchObject({
      voiceFallbackUrl: 'https://backup.example.com/voice',
      messagingFallbackUrl: 'https://backup.example.com/sms',
    });

    expect(
      (
        await stack.request(alice, 'PUT', `/v1/applications/${id}/`, {
          voiceFallbackUrl: '',
          messagingFallbackUrl: null,
        })
      ).status,
    ).toBe(200);
    app = await get();
    expect(app).not.toHaveProperty('voiceFallbackUrl');
    expect(app.messagingFallbackUrl).toBe('https://backup.example.com/sms');
    const [row] = await queryDatabase<{ voice_fallback_url: string | null }>(
      stack.databaseUrl,
      `select voice_fallback_url from applications.applications where id = $1`,
      [id],
    );
    expect(row!.voice_fallback_url).toBeNull();
  });

  it('when a fallback URL is a private address literal, not a URL, or not a string, then 400 naming the field, and nothing changes', async () => {
    const id = await createApp(alice);
    for (const [body, field] of [
      [{ voiceFallbackUrl: 'http://10.0.0.1/hook' }, 'voiceFallbackUrl'],
      [{ messagingFallbackUrl: 'http://[::1]:8080/x' }, 'messagingFallbackUrl'],
      [{ voiceFallbackUrl: 'http://169.254.169.254/latest/meta-data' }, 'voiceFallbackUrl'],
      [{ voiceFallbackUrl: 'not a url' }, 'voiceFallbackUrl'],
      [{ messagingFallbackUrl: 'ftp://example.com/x' }, 'messagingFallbackUrl'],
      [{ voiceFallbackUrl: 42 }, 'voiceFallbackUrl'],
    ] as const) {
      for (const [method, path, payload] of [
        ['POST', '/v1/applications', { name: 'x', voiceUrl: 'https://example.com/v', ...body }],
        ['PUT', `/v1/applications/${id}`, body],
      ] as const) {
        const res = await stack.request(alice, method, path, payload);
        expect(res.status, `${method} ${JSON.stringify(body)}`).toBe(400);
        expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect((await json(res)).errors.map((e: { field: string }) => e.field)).toContain(field);
      }
    }
    expect(await json(await stack.request(alice, 'GET', `/v1/applications/${id}`))).not.toHaveProperty(
      'voiceFallbackUrl',
    );
  });

  it('when only fallback URLs are given, then they do not count as the required voiceUrl or messagingUrl', async () => {
    const res = await stack.request(alice, 'POST', '/v1/applications', {
      name: 'x',
      voiceFallbackUrl: 'https://example.com/v',
      messagingFallbackUrl: 'https://example.com/m',
    });
    expect(res.status).toBe(400);
    expect((await json(res)).errors).toEqual([
      { field: 'voiceUrl', message: 'at least one of voiceUrl or messagingUrl must be set' },
    ]);
    const id = await createApp(alice, { voiceFallbackUrl: 'https://example.com/fb' });
    const cleared = await stack.request(alice, 'PUT', `/v1/applications/${id}`, { voiceUrl: '' });
    expect(cleared.status).toBe(400);
  });
});
