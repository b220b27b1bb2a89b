// Operations: health, readiness, metrics, configuration errors, and behaviour when Postgres or NATS is down.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '@switchboard/config';
import { healthClient } from '@switchboard/proto';
import { newSecretsKey, startPrivatePostgres, waitFor, type PrivatePostgres } from '../../../test/support';
import { loadConfig } from '../src/config';
import { codeOf, useHarness, type Harness, type RunningWebhooks } from './harness';

let h: Harness;
useHarness((s) => (h = s));

const body = { event: 'cdrRated', resource: 'call', targetUrl: 'https://example.com/hook' };
const ops = (r: RunningWebhooks, path: string) => fetch(`http://127.0.0.1:${r.opsPort}${path}`);

describe('health and metrics', () => {
  it('when the service runs, then /healthz and /readyz answer 200 with the database and NATS checks', async () => {
    expect((await ops(h.webhooks, '/healthz')).status).toBe(200);
    const ready = await ops(h.webhooks, '/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready', checks: { database: true, nats: true } });
  });

  it('when asked over gRPC, then grpc.health.v1 answers SERVING', async () => {
    const health = healthClient(`127.0.0.1:${h.webhooks.grpcPort}`, 'webhooks');
    try {
      expect(await health.check({ service: '' })).toEqual({ status: 'SERVING' });
    } finally {
      health.close();
    }
  });

  it('when RPCs were served, then /metrics carries webhooks_grpc_server_* by method and code, and process metrics', async () => {
    const acct = await h.newAccount();
    await h.webhooks.client.createSubscription({ accountId: acct, ...body });
    await codeOf(h.webhooks.client.getSubscription({ accountId: acct, id: 'wh_000000000000000000000000' }));
    const text = await (await ops(h.webhooks, '/metrics')).text();
    expect(text).toMatch(/webhooks_grpc_server_handled_total\{method="CreateSubscription",code="OK"\} \d+/);
    expect(text).toMatch(/webhooks_grpc_server_handled_total\{method="GetSubscription",code="NOT_FOUND"\} \d+/);
    expect(text).toMatch(/webhooks_grpc_server_duration_seconds_bucket/);
    expect(text).toMatch(/webhooks_process_cpu_seconds_total/);
    expect(text).toMatch(/webhooks_change_events_total\{outcome="ok"\}/);
  });
});

describe('configuration', () => {
  const KEY = newSecretsKey();

  it('when the defaults apply, then the ports and schema are the documented ones', () => {
    const c = loadConfig({ SECRETS_KEY: KEY });
    expect(c).toMatchObject({
      GRPC_PORT: 50052,
      OPS_PORT: 8082,
      DB_SCHEMA: 'webhooks',
      APPLICATIONS_GRPC_URL: '127.0.0.1:50051',
      MIGRATE_ON_START: true,
    });
    expect(c.DELIVERY_ALLOWED_CIDRS).toEqual([]);
  });

  it('when a variable is invalid, then loading fails with a message naming it', () => {
    expect(() => loadConfig({ SECRETS_KEY: KEY, DELIVERY_ALLOWED_CIDRS: '10.0.0.0/99' })).toThrow(ConfigError);
    expect(() => loadConfig({ SECRETS_KEY: KEY, DELIVERY_ALLOWED_CIDRS: 'nope' })).toThrow(/DELIVERY_ALLOWED_CIDRS/);
    expect(() => loadConfig({ SECRETS_KEY: KEY, APPLICATIONS_GRPC_URL: 'no port' })).toThrow(/APPLICATIONS_GRPC_URL/);
    expect(() => loadConfig({ SECRETS_KEY: KEY, DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ SECRETS_KEY: KEY, GRPC_PORT: '70000' })).toThrow(/GRPC_PORT/);
    expect(() => loadConfig({})).toThrow(/SECRETS_KEY: is required/);
    expect(() => loadConfig({ SECRETS_KEY: 'too-short' })).toThrow(/SECRETS_KEY: must be a 32-byte key/);
  });
});

describe('dependencies down', () => {
  let pgServer: PrivatePostgres;
  let svc: RunningWebhooks;
  beforeAll(async () => {
    pgServer = await startPrivatePostgres();
    svc = await h.startWebhooks({ DATABASE_URL: pgServer.url });
  });
  afterAll(async () => {
    await svc?.stop();
    await pgServer?.destroy();
  });

  it('when Postgres is down, then calls fail with unavailable (503) and readiness fails; when it is back, calls work again', async () => {
    const acct = await h.newAccount();
    await svc.client.createSubscription({ accountId: acct, ...body });
    await pgServer.stop();
    expect(await codeOf(svc.client.createSubscription({ accountId: acct, ...body }))).toBe('unavailable');
    expect(await codeOf(svc.client.listSubscriptions({ accountId: acct }))).toBe('unavailable');
    const ready = await ops(svc, '/readyz');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ checks: { database: false } });
    await pgServer.start();
    await waitFor(async () => (await codeOf(svc.client.listSubscriptions({ accountId: acct }))) === 'ok', {
      what: 'recovery',
      timeoutMs: 20_000,
    });
    expect((await svc.client.listSubscriptions({ accountId: acct })).subscriptions).toHaveLength(1);
  });

  it('when the applications service is unreachable, then application-level calls fail with unavailable, account-level ones work', async () => {
    const lonely = await h.startWebhooks({ APPLICATIONS_GRPC_URL: '127.0.0.1:1', APPLICATIONS_TIMEOUT_MS: '500' });
    try {
      const acct = await h.newAccount();
      expect(
        await codeOf(
          lonely.client.createSubscription({ accountId: acct, applicationId: 'aaaaaaaaaaaaaaaaaaaaaaaa', ...body }),
        ),
      ).toBe('unavailable');
      expect(await codeOf(lonely.client.createSubscription({ accountId: acct, ...body }))).toBe('ok');
    } finally {
      await lonely.stop();
    }
  });

  it('when NATS is down, then changes still succeed (the change event is best effort) and readiness reports NATS', async () => {
    const acct = await h.newAccount();
    await h.nats.stop();
    try {
      const started = Date.now();
      expect(await codeOf(h.webhooks.client.createSubscription({ accountId: acct, ...body }))).toBe('ok');
      expect(Date.now() - started).toBeLessThan(2000);
      const ready = await ops(h.webhooks, '/readyz');
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ checks: { nats: false } });
    } finally {
      await h.nats.start();
    }
    await waitFor(async () => (await ops(h.webhooks, '/readyz')).status === 200, {
      what: 'NATS reconnect',
      timeoutMs: 20_000,
    });
  });
});
