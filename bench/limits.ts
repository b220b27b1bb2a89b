// The shared limits on the hot path: GET /v1/applications/:id with the per-account request limit on
// (RATE_LIMIT_PER_SECOND above what the load reaches, so nothing is refused and every request takes
// a token), through this checkout's gateway (the limit counted for every replica, SHARED_LIMITS on:
// tokens leased from NATS in batches) against another gateway on the same stack, in alternating
// rounds of the same load: the gateway of another checkout when BENCH_LIMITS_BASE names its folder
// (e.g. main's code unpacked with `git archive main | tar -x -C DIR`, whose node_modules is this
// one's), else this gateway with SHARED_LIMITS=false (the limit counted per replica). Also the CPU
// time of each gateway process per request.
import { resolve } from 'node:path';
import { freePort, portEnv } from '../test/support';
import { combine, benchService, cpuSecondsOf, fmt, load, startDeliveryStack, table, type LoadResult } from './lib';

export interface LimitsBenchResult {
  rate: number;
  other: 'base checkout' | 'SHARED_LIMITS=false';
  shared: LoadResult;
  local: LoadResult;
  /** shared / other, requests per second. */
  ratio: number;
  roundRatios: number[];
  cpuUs: { shared: number; local: number };
  /** Leases the shared gateway made (gateway_shared_limit_leases_total). */
  leases: number;
}

export async function runLimitsBench(opts: {
  seconds: number;
  rounds: number;
  connections: number;
  rate?: number;
  baseDir?: string;
}): Promise<LimitsBenchResult> {
  const rate = opts.rate ?? 1_000_000;
  const stack = await startDeliveryStack();
  try {
    const limitEnv = { RATE_LIMIT_PER_SECOND: String(rate) };
    const sharedOps = await freePort();
    const sharedPort = await stack.startGateway({ ...limitEnv, OPS_PORT: String(sharedOps) });
    let localPort: number;
    if (opts.baseDir) {
      localPort = await freePort();
      const base = benchService(
        'gateway',
        {
          ...stack.env,
          ...limitEnv,
          ...portEnv('gateway', { api: localPort, ops: await freePort() }),
          APPLICATIONS_GRPC_URL: stack.applicationsGrpc,
          WEBHOOKS_GRPC_URL: stack.webhooksGrpc,
        },
        { name: 'gateway-base', servicesDir: resolve(opts.baseDir, 'services') },
      );
      stack.procs.push(base);
      await base.start();
    } else localPort = await stack.startGateway({ ...limitEnv, SHARED_LIMITS: 'false' });
    const gateways = stack.procs.filter((p) => p.name.startsWith('gateway'));
    const pids = { shared: gateways[0]!.pid()!, local: gateways[1]!.pid()! };
    const headers = {
      authorization: `Basic ${Buffer.from('bench:bench-password').toString('base64')}`,
      'content-type': 'application/json',
    };
    const url = (port: number, path: string) => `http://127.0.0.1:${port}${path}`;
    const created = await fetch(url(sharedPort, '/v1/applications'), {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'bench', voiceUrl: 'https://example.com/voice' }),
    });
    if (created.status !== 200) throw new Error(`creating the application: ${created.status} ${await created.text()}`);
    const path = `/v1/applications/${((await created.json()) as { href: string }).href.split('/').pop()}`;
    const ports = { shared: sharedPort, local: localPort };
    const run = (which: 'shared' | 'local', seconds: number) =>
      load({ url: url(ports[which], path), headers, connections: opts.connections, seconds });
    await run('shared', 2);
    await run('local', 2);
    const rounds: Record<'shared' | 'local', LoadResult[]> = { shared: [], local: [] };
    const cpu = { shared: 0, local: 0 };
    for (let i = 0; i < opts.rounds; i++) {
      for (const which of i % 2 === 0 ? (['shared', 'local'] as const) : (['local', 'shared'] as const)) {
        const before = cpuSecondsOf(pids[which]);
        rounds[which].push(await run(which, opts.seconds));
        cpu[which] += cpuSecondsOf(pids[which]) - before;
      }
    }
    const perRequest = (which: 'shared' | 'local') =>
      (cpu[which] * 1e6) /
      Math.max(
        1,
        rounds[which].reduce((a, r) => a + r.total, 0),
      );
    const metrics = await (await fetch(`http://127.0.0.1:${sharedOps}/metrics`)).text();
    const leases = [...metrics.matchAll(/^gateway_shared_limit_leases_total\{[^}]*\} (\d+)/gm)].reduce(
      (a, m) => a + Number(m[1]),
      0,
    );
    const shared = combine(rounds.shared);
    const local = combine(rounds.local);
    return {
      rate,
      other: opts.baseDir ? 'base checkout' : 'SHARED_LIMITS=false',
      shared,
      local,
      ratio: shared.rps / local.rps,
      roundRatios: rounds.shared.map((r, i) => r.rps / rounds.local[i]!.rps),
      cpuUs: { shared: perRequest('shared'), local: perRequest('local') },
      leases,
    };
  } finally {
    await stack.stop();
  }
}

export function printLimitsResults(r: LimitsBenchResult, connections: number): string {
  const row = (name: string, x: LoadResult, cpuUs: number) => [
    name,
    fmt(x.rps),
    fmt(x.p50, 1),
    fmt(x.p99, 1),
    String(x.non2xx + x.errors),
    fmt(cpuUs),
  ];
  return [
    `GET /v1/applications/:id with RATE_LIMIT_PER_SECOND=${r.rate}: shared limits vs ${r.other} (${connections} connections)`,
    table([
      ['gateway', 'req/s', 'p50 ms', 'p99 ms', 'failed', 'CPU us/req gateway'],
      row('shared limits', r.shared, r.cpuUs.shared),
      row(r.other, r.local, r.cpuUs.local),
    ]),
    `ratio shared/${r.other} ${r.ratio.toFixed(3)} (target >= 0.95; rounds ${r.roundRatios.map((y) => y.toFixed(2)).join(', ')}); leases made: ${r.leases}`,
  ].join('\n');
}
