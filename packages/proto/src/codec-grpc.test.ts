// The static codecs over real grpc-js on loopback, alone and in batches: what a caller of the
// services would notice (int64 ids and values beyond 2^53, absent optional fields, maps, enums).
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, createRegistry } from '@switchboard/observability';
import { GrpcServer } from '@switchboard/rpc';
import {
  applicationsClient,
  applicationsProto,
  batchProto,
  callBatcher,
  healthClient,
  healthProto,
  webhooksClient,
  webhooksProto,
} from './index';

const servers: GrpcServer[] = [];
const closers: (() => void)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0)) close();
  await Promise.all(servers.splice(0).map((s) => s.stop(1000)));
});

const BIG = '9223372036854775807';
const NEGATIVE = '-9007199254740993';

async function startServer() {
  const server = new GrpcServer({
    service: 'test',
    logger: createLogger('test', 'silent'),
    registry: createRegistry('test'),
  });
  const seen: unknown[] = [];
  server.add(applicationsProto().ApplicationsService.service, {
    ListApplications: async (req) => {
      seen.push(req);
      return {
        applications: [
          // Every optional field set (one to the empty string), int64s at the ends of their range.
          {
            id: 'a1',
            accountId: req.accountId,
            name: 'first',
            voiceUrl: 'https://example.com/v',
            messagingUrl: '',
            environmentId: BIG,
            apiType: 'webapi',
            partition: 'Production',
            createdAt: 'c',
            updatedAt: 'u',
            voiceFallbackUrl: 'https://example.com/f',
            messagingFallbackUrl: 'https://example.com/g',
          },
          // No optional field; int64s as numbers, as a handler may give them.
          {
            id: 'a2',
            accountId: 7,
            name: 'second',
            environmentId: 2,
            apiType: 'scripting',
            createdAt: 'c',
            updatedAt: 'u',
          },
          {
            id: 'a3',
            accountId: NEGATIVE,
            name: 'ünïcödé ✓ 𝄞 '.repeat(3000),
            environmentId: '0',
            apiType: 'scripting',
            createdAt: 'c',
            updatedAt: 'u',
          },
        ],
        nextCursor: req.cursor ? '' : 'next',
      };
    },
  });
  server.add(webhooksProto().WebhooksService.service, {
    GetSubscription: async (req) => ({
      subscription: {
        id: req.id,
        accountId: req.accountId,
        applicationId: '',
        event: 'smsdlr',
        resource: 'call,sms',
        targetUrl: 'https://example.com/t',
        enabled: true,
        createdAt: 'c',
        updatedAt: 'u',
        consecutiveFailures: 3,
        lastStatus: req.id === 'with-status' ? 0 : undefined,
        headers: (req.id === 'with-status' ? { 'X-One': '1', Authorization: '***' } : {}) as Record<string, string>,
      },
    }),
  });
  server.addHealth(healthProto().Health.service);
  server.addBatch(batchProto().BatchService.service);
  const port = await server.listen('127.0.0.1', 0);
  servers.push(server);
  return { address: `127.0.0.1:${port}`, seen };
}

function clients(address: string, batched: boolean) {
  const batch = batched ? callBatcher(address, { target: 'test', maxInFlight: 1 }) : undefined;
  const apps = applicationsClient(address, { batch });
  const hooks = webhooksClient(address, { batch });
  closers.push(
    () => apps.close(),
    () => hooks.close(),
    () => batch?.close(),
  );
  return { apps, hooks };
}

describe.each([false, true])('messages through grpc-js (batched: %s)', (batched) => {
  it('when a list is read, then int64 values come back as exact decimal strings and absent optional fields stay absent', async () => {
    const server = await startServer();
    const { apps } = clients(server.address, batched);
    const pages = await Promise.all([
      apps.listApplications({ accountId: BIG, limit: 3, cursor: '' }),
      apps.listApplications({ accountId: '42', limit: 3, cursor: 'c' }),
    ]);
    expect(server.seen).toEqual(
      expect.arrayContaining([
        { accountId: BIG, limit: 3, cursor: '' },
        { accountId: '42', limit: 3, cursor: 'c' },
      ]),
    );
    const [first, second] = pages;
    expect(first!.nextCursor).toBe('next');
    expect(second!.nextCursor).toBe('');
    const [a1, a2, a3] = first!.applications;
    expect(a1).toMatchObject({
      accountId: BIG,
      environmentId: BIG,
      voiceUrl: 'https://example.com/v',
      messagingUrl: '',
      partition: 'Production',
      voiceFallbackUrl: 'https://example.com/f',
    });
    expect(a2).toEqual({
      id: 'a2',
      accountId: '7',
      name: 'second',
      environmentId: '2',
      apiType: 'scripting',
      createdAt: 'c',
      updatedAt: 'u',
    });
    for (const field of ['voiceUrl', 'messagingUrl', 'partition', 'voiceFallbackUrl', 'messagingFallbackUrl'])
      expect(field in a2!).toBe(false);
    // A name of 36,000 characters (multi-byte ones among them): lengths of several bytes inside nested messages.
    expect(a3).toMatchObject({ accountId: NEGATIVE, environmentId: '0', name: 'ünïcödé ✓ 𝄞 '.repeat(3000) });
  });

  it('when a message has a map, an optional int32 set to 0 or left out, then both come back as sent', async () => {
    const server = await startServer();
    const { hooks } = clients(server.address, batched);
    const [withStatus, without] = await Promise.all([
      hooks.getSubscription({ accountId: '1', id: 'with-status', applicationId: '' }),
      hooks.getSubscription({ accountId: '1', id: 'plain', applicationId: '' }),
    ]);
    expect(withStatus!.subscription).toMatchObject({
      lastStatus: 0,
      headers: { 'X-One': '1', Authorization: '***' },
      consecutiveFailures: 3,
      enabled: true,
      resource: 'call,sms',
    });
    expect('lastStatus' in without!.subscription!).toBe(false);
    expect(without!.subscription!.headers).toEqual({});
    expect(without!.subscription!.payloadJson).toBeUndefined();
  });

  it('when the health service answers, then its enum comes back by name', async () => {
    const server = await startServer();
    const health = healthClient(server.address, 'test');
    closers.push(() => health.close());
    await expect(health.check({ service: '' })).resolves.toEqual({ status: 'SERVING' });
  });
});
