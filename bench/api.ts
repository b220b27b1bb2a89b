// Issue 2 benchmark: GET /v1/applications/:id, GET the list and POST through the full stack
// (gateway -> gRPC -> applications -> Postgres), against one Express process serving the same
// routes straight from Postgres with the same auth cache. Same machine, same run, same load.
import { execFileSync } from 'node:child_process';
import { createTestDatabase, freePort, startNatsServer } from '@switchboard/testing';
import { fmt, load, root, startProcess, table, waitHttp, type LoadResult } from './lib';

export interface ScenarioResult {
  name: string;
  stack: LoadResult;
  baseline: LoadResult;
}

export async function runApiBench(opts: { seconds: number; connections: number }): Promise<ScenarioResult[]> {
  const db = await createTestDatabase();
  const nats = await startNatsServer();
  const [grpc, ops, gw, base] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  const common = { DATABASE_URL: db.url, NATS_URL: nats.url, LOG_LEVEL: 'warn', HOST: '127.0.0.1' };
  const apps = startProcess('applications', 'services/applications', 'src/main.ts', { ...common, GRPC_PORT: String(grpc), OPS_PORT: String(ops) });
  const gateway = startProcess('gateway', 'services/gateway', 'src/main.ts', {
    ...common,
    PORT: String(gw),
    APPLICATIONS_GRPC_URL: `127.0.0.1:${grpc}`,
    WEBHOOKS_GRPC_URL: `127.0.0.1:${await freePort()}`,
    RATE_LIMIT_PER_SECOND: '0',
  });
  const procs = [apps, gateway];
  try {
    await waitHttp(`http://127.0.0.1:${ops}/readyz`, 'applications', (s) => s === 200);
    await waitHttp(`http://127.0.0.1:${gw}/healthz`, 'gateway', (s) => s === 200);
    execFileSync(process.execPath, ['--import', 'tsx', 'services/applications/src/account-cli.ts', 'create', '--username', 'bench', '--password', 'bench-password'], {
      cwd: root,
      env: { ...process.env, ...common },
      stdio: 'ignore',
    });
    const baseline = startProcess('baseline', 'bench', 'baseline/server.ts', { DATABASE_URL: db.url, PORT: String(base) });
    procs.push(baseline);
    await waitHttp(`http://127.0.0.1:${base}/v1/applications`, 'baseline', (s) => s === 401);

    const headers = { authorization: `Basic ${Buffer.from('bench:bench-password').toString('base64')}`, 'content-type': 'application/json' };
    let id = '';
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`http://127.0.0.1:${gw}/v1/applications`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: `bench ${i}`, voiceUrl: `https://example.com/voice/${i}`, messagingUrl: 'https://example.com/sms' }),
      });
      id = ((await res.json()) as { href: string }).href.split('/').pop()!;
    }
    let n = 0;
    const createBody = () => JSON.stringify({ name: `created ${n++}`, voiceUrl: 'https://example.com/voice' });
    const scenarios = [
      { name: 'GET /v1/applications/:id', path: `/v1/applications/${id}`, method: 'GET' as const },
      { name: 'GET /v1/applications (20 items)', path: '/v1/applications', method: 'GET' as const },
      { name: 'POST /v1/applications', path: '/v1/applications', method: 'POST' as const, body: createBody },
    ];
    const results: ScenarioResult[] = [];
    for (const s of scenarios) {
      const run = (port: number, seconds: number) =>
        load({ url: `http://127.0.0.1:${port}${s.path}`, method: s.method, headers, ...(s.body ? { body: s.body } : {}), connections: opts.connections, seconds });
      // Warm both (JIT, pools, auth cache), then measure each in turn.
      await run(gw, 2);
      await run(base, 2);
      const stack = await run(gw, opts.seconds);
      const baselineResult = await run(base, opts.seconds);
      results.push({ name: s.name, stack, baseline: baselineResult });
      process.stderr.write(`  ${s.name}: stack ${fmt(stack.rps)} req/s, baseline ${fmt(baselineResult.rps)} req/s\n`);
    }
    return results;
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
    await nats.destroy();
    await db.drop();
  }
}

export function printApiResults(title: string, results: ScenarioResult[], connections: number): string {
  const rows = [['scenario', 'stack req/s', 'stack p99 ms', 'baseline req/s', 'baseline p99 ms', 'ratio (stack/baseline)', 'errors']];
  for (const r of results) {
    rows.push([
      r.name,
      fmt(r.stack.rps),
      fmt(r.stack.p99, 1),
      fmt(r.baseline.rps),
      fmt(r.baseline.p99, 1),
      `${fmt((r.stack.rps / r.baseline.rps) * 100, 1)}%`,
      String(r.stack.non2xx + r.stack.errors + r.baseline.non2xx + r.baseline.errors),
    ]);
  }
  return `${title} (${connections} connections)\n${table(rows)}`;
}
