// Calls carried in batches (switchboard.rpc.v1.BatchService) between a real grpc-js client and
// server over loopback: each call keeps its own answer, error and metadata; a server without the
// batch service still gets every call.
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '@switchboard/errors';
import { createLogger, createRegistry } from '@switchboard/observability';
import { GrpcServer } from '@switchboard/rpc';
import { applicationsClient, applicationsProto, batchProto, callBatcher } from './index';

const servers: GrpcServer[] = [];
const closers: (() => void)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0)) close();
  await Promise.all(servers.splice(0).map((s) => s.stop(1000)));
});

/** A server whose GetApplication answers after `delayMs` with the id, the account and the call's request id; ids starting "missing" are not found. */
async function startServer(withBatch: boolean, delayMs = 5) {
  const registry = createRegistry('test');
  const server = new GrpcServer({ service: 'test', logger: createLogger('test', 'silent'), registry });
  server.add(applicationsProto().ApplicationsService.service, {
    GetApplication: async (req, ctx) => {
      await new Promise((r) => setTimeout(r, delayMs));
      if (req.id.startsWith('missing')) throw AppError.notFound('application');
      // "big" ids answer with a 1 MB name.
      return {
        application: {
          id: req.id,
          accountId: req.accountId,
          name: req.id.startsWith('big') ? 'n'.repeat(1024 * 1024) : ctx.requestId,
        },
      };
    },
  });
  if (withBatch) server.addBatch(batchProto().BatchService.service);
  const port = await server.listen('127.0.0.1', 0);
  servers.push(server);
  return { address: `127.0.0.1:${port}`, registry };
}

function batchingClient(address: string, maxInFlight = 2) {
  const registry = createRegistry('client');
  const batch = callBatcher(address, { target: 'applications', maxInFlight, metrics: { registry, prefix: 'client' } });
  const client = applicationsClient(address, { batch, metrics: { registry, prefix: 'client' } });
  closers.push(
    () => client.close(),
    () => batch.close(),
  );
  const batches = async () => {
    const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === 'client_grpc_client_batch_calls');
    const values = (metric?.values ?? []) as { metricName?: string; value: number }[];
    return {
      count: values.find((v) => v.metricName === 'client_grpc_client_batch_calls_count')?.value ?? 0,
      calls: values.find((v) => v.metricName === 'client_grpc_client_batch_calls_sum')?.value ?? 0,
    };
  };
  return { client, batches };
}

async function handledByServer(registry: ReturnType<typeof createRegistry>, code: string): Promise<number> {
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === 'test_grpc_server_handled_total');
  return (metric?.values ?? [])
    .filter((v) => v.labels.method === 'GetApplication' && v.labels.code === code)
    .reduce((a, v) => a + v.value, 0);
}

describe('gRPC calls in batches', () => {
  it('when 60 calls are made at once, then they leave in batches and each gets its own answer, request id and error', async () => {
    const server = await startServer(true);
    const { client, batches } = batchingClient(server.address);
    const ids = Array.from({ length: 60 }, (_, i) => (i % 10 === 3 ? `missing-${i}` : `app-${i}`));
    const answers = await Promise.allSettled(
      ids.map((id, i) => client.getApplication({ id, accountId: String(100 + i) }, { requestId: `req-${i}` })),
    );
    answers.forEach((a, i) => {
      if (ids[i]!.startsWith('missing')) {
        expect(a.status).toBe('rejected');
        const err = (a as PromiseRejectedResult).reason as AppError;
        expect(err).toBeInstanceOf(AppError);
        expect(err.code).toBe('not_found');
        expect(err.detail).toMatch(/application/);
      } else {
        expect(a.status).toBe('fulfilled');
        const app = (a as PromiseFulfilledResult<{ application: { id: string; accountId: string; name: string } }>)
          .value.application;
        expect(app).toMatchObject({ id: ids[i], accountId: String(100 + i), name: `req-${i}` });
      }
    });
    // At most two out at once: the other 58 calls waited and left together.
    const sent = await batches();
    expect(sent.count).toBeGreaterThanOrEqual(1);
    expect(sent.calls).toBeGreaterThanOrEqual(58);
    // The server ran each call through its handler, as if it had come alone.
    expect(await handledByServer(server.registry, 'OK')).toBe(54);
    expect(await handledByServer(server.registry, 'NOT_FOUND')).toBe(6);
  });

  it('when the answers of one batch add up to more than a message may hold alone (10 x 1 MB), and requests to more than 1 MB, then every call still gets its answer', async () => {
    const server = await startServer(true);
    const { client, batches } = batchingClient(server.address, 1);
    const big = await Promise.all(
      Array.from({ length: 11 }, (_, i) => client.getApplication({ id: `big-${i}`, accountId: '1' })),
    );
    expect(big.every((r, i) => r.application?.id === `big-${i}` && r.application.name.length === 1024 * 1024)).toBe(
      true,
    );
    // Requests of 300 kB each: at most three of them travel in one batch.
    const large = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        client.getApplication({ id: `${i}-${'x'.repeat(300 * 1024)}`, accountId: '1' }),
      ),
    );
    expect(large.every((r, i) => r.application?.id.startsWith(`${i}-x`))).toBe(true);
    const sent = await batches();
    expect(sent.count).toBeGreaterThanOrEqual(5);
  });

  it('when a request cannot be encoded, then that call fails and the calls beside it, alone or batched, are answered', async () => {
    const server = await startServer(true);
    const { client } = batchingClient(server.address, 1);
    const bad = {
      id: {
        toString: () => {
          throw new Error('not a string');
        },
      } as unknown as string,
      accountId: '1',
    };
    const answers = await Promise.allSettled(
      [bad, { id: 'a', accountId: '1' }, bad, { id: 'b', accountId: '1' }, { id: 'c', accountId: '1' }].map((r) =>
        client.getApplication(r),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(['rejected', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(((answers[0] as PromiseRejectedResult).reason as AppError).code).toBe('internal');
  });

  it('when the batcher was closed, then the calls waiting for it fail and nothing throws out of the batcher', async () => {
    const server = await startServer(true);
    const registry = createRegistry('closed');
    const batch = callBatcher(server.address, {
      target: 'applications',
      maxInFlight: 1,
      metrics: { registry, prefix: 'closed' },
    });
    const client = applicationsClient(server.address, { batch });
    closers.push(() => client.close());
    batch.close();
    const answers = await Promise.allSettled(
      Array.from({ length: 5 }, (_, i) => client.getApplication({ id: `app-${i}`, accountId: '1' })),
    );
    // Made in one turn, the five left together, on the closed batch client: each fails as a call.
    for (const a of answers) {
      expect(a.status).toBe('rejected');
      expect((a as PromiseRejectedResult).reason).toBeInstanceOf(AppError);
    }
  });

  it('when calls come one at a time, then each goes alone and at once', async () => {
    const server = await startServer(true, 0);
    const { client, batches } = batchingClient(server.address);
    for (let i = 0; i < 5; i++) {
      const { application } = await client.getApplication({ id: `app-${i}`, accountId: '7' });
      expect(application?.id).toBe(`app-${i}`);
    }
    expect((await batches()).count).toBe(0);
  });

  it('when the server has no batch service (an older release), then every call still gets its answer, alone', async () => {
    const server = await startServer(false);
    const { client, batches } = batchingClient(server.address);
    const first = await Promise.all(
      Array.from({ length: 20 }, (_, i) => client.getApplication({ id: `app-${i}`, accountId: '1' })),
    );
    expect(first.map((r) => r.application?.id)).toEqual(Array.from({ length: 20 }, (_, i) => `app-${i}`));
    // Later calls are not offered as batches again for a while: they all reach the handler alone.
    const before = (await batches()).count;
    const second = await Promise.all(
      Array.from({ length: 20 }, (_, i) => client.getApplication({ id: `again-${i}`, accountId: '1' })),
    );
    expect(second.every((r, i) => r.application?.id === `again-${i}`)).toBe(true);
    expect((await batches()).count).toBe(before);
    expect(await handledByServer(server.registry, 'OK')).toBe(40);
  });

  it('when the server is gone, then every call of a batch fails as unavailable', async () => {
    const server = await startServer(true);
    const address = server.address;
    await servers.pop()!.stop(100);
    const { client } = batchingClient(address);
    const answers = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        client.getApplication({ id: `app-${i}`, accountId: '1' }, { timeoutMs: 2000 }),
      ),
    );
    for (const a of answers) {
      expect(a.status).toBe('rejected');
      expect(((a as PromiseRejectedResult).reason as AppError).code).toBe('unavailable');
    }
  });
});
