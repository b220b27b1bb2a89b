// API keys on the hot path: GET /v1/applications/:id with every request verifying its API key
// (Bearer; the gateway's cache of verified keys off, API_KEY_CACHE_TTL_MS=0: the read's own call
// carries the key, and the applications service computes its keyed hash and reads the key and the
// application in one statement), against the same GET with the account password from the gateway's
// cache of verified passwords. Same stack, alternating rounds. Also the CPU time of each service
// process per request on either side, and what the keyed hash itself costs.
import { randomBytes } from 'node:crypto';
import { keyedHash } from '../services/applications/src/api-keys/keys';
import { combine, cpuSecondsOf, fmt, load, startBenchStack, table, type LoadResult } from './lib';

/** CPU time per request over the measured rounds, in microseconds, by service process. */
export interface CpuPerRequest {
  gateway: number;
  applications: number;
}

export interface KeysBenchResult {
  password: LoadResult;
  key: LoadResult;
  ratio: number;
  roundRatios: number[];
  cpuUs: { password: CpuPerRequest; key: CpuPerRequest };
  /** One HMAC-SHA-256 of a key, as the applications service computes it to verify one (keyedHash), in microseconds (this process). */
  hmacUs: number;
}

/** The average time of one keyedHash (HMAC-SHA-256) of an `sbk_` key under a 32-byte key, over `n` of them. */
function measureHmac(n = 200_000): number {
  const hashKey = randomBytes(32);
  const key = `sbk_${randomBytes(32).toString('base64url')}`;
  for (let i = 0; i < 10_000; i++) keyedHash(hashKey, key);
  const started = process.hrtime.bigint();
  for (let i = 0; i < n; i++) keyedHash(hashKey, key);
  return Number(process.hrtime.bigint() - started) / 1000 / n;
}

export async function runKeysBench(opts: {
  seconds: number;
  rounds: number;
  connections: number;
}): Promise<KeysBenchResult> {
  const stack = await startBenchStack({ baseline: false, serviceEnv: { API_KEY_CACHE_TTL_MS: '0' } });
  try {
    const url = (path: string) => `http://127.0.0.1:${stack.gatewayPort}${path}`;
    // The first login pays the password KDF, which a busy host may not finish within the deadline: try again.
    let created = new Response(null, { status: 503 });
    for (let i = 0; i < 10 && created.status === 503; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 2000));
      created = await fetch(url('/v1/applications'), {
        method: 'POST',
        headers: stack.headers,
        body: JSON.stringify({ name: 'bench', voiceUrl: 'https://example.com/voice' }),
      });
    }
    if (created.status !== 200) throw new Error(`creating the application: ${created.status} ${await created.text()}`);
    const id = ((await created.json()) as { href: string }).href.split('/').pop()!;
    const keyRes = await fetch(url('/v1/api-keys'), {
      method: 'POST',
      headers: stack.headers,
      body: JSON.stringify({ name: 'bench', scope: 'read' }),
    });
    if (keyRes.status !== 200) throw new Error(`creating the key: ${keyRes.status} ${await keyRes.text()}`);
    const { key } = (await keyRes.json()) as { key: string };
    const headers = { password: stack.headers, key: { authorization: `Bearer ${key}` } };
    const run = (which: 'password' | 'key', seconds: number) =>
      load({ url: url(`/v1/applications/${id}`), headers: headers[which], connections: opts.connections, seconds });
    await run('password', 2);
    await run('key', 2);
    const rounds: Record<'password' | 'key', LoadResult[]> = { password: [], key: [] };
    // CPU seconds of the service processes (applications, gateway: startBenchStack's order) by side.
    const cpu = { password: [0, 0], key: [0, 0] };
    const cpuNow = () => stack.servicePids.map(cpuSecondsOf);
    for (let i = 0; i < opts.rounds; i++) {
      for (const which of i % 2 === 0 ? (['password', 'key'] as const) : (['key', 'password'] as const)) {
        const before = cpuNow();
        rounds[which].push(await run(which, opts.seconds));
        cpuNow().forEach((c, p) => {
          cpu[which][p]! += c - before[p]!;
        });
      }
    }
    const password = combine(rounds.password);
    const keyed = combine(rounds.key);
    const perRequest = (which: 'password' | 'key'): CpuPerRequest => {
      const requests = rounds[which].reduce((a, r) => a + r.total, 0);
      return {
        applications: (cpu[which][0]! * 1e6) / Math.max(1, requests),
        gateway: (cpu[which][1]! * 1e6) / Math.max(1, requests),
      };
    };
    return {
      cpuUs: { password: perRequest('password'), key: perRequest('key') },
      hmacUs: measureHmac(),
      password,
      key: keyed,
      ratio: keyed.rps / password.rps,
      roundRatios: rounds.key.map((r, i) => r.rps / rounds.password[i]!.rps),
    };
  } finally {
    await stack.stop();
  }
}

export function printKeysResults(r: KeysBenchResult, connections: number): string {
  const row = (name: string, x: LoadResult) => [
    name,
    fmt(x.rps),
    fmt(x.p50, 1),
    fmt(x.p99, 1),
    String(x.non2xx + x.errors),
  ];
  const cpu = (c: CpuPerRequest) => [fmt(c.gateway), fmt(c.applications)];
  return [
    `API keys: GET /v1/applications/:id, every request verifying its key (no cache) vs the cached password (${connections} connections)`,
    table([
      ['credential', 'req/s', 'p50 ms', 'p99 ms', 'failed', 'CPU us/req gateway', 'CPU us/req applications'],
      [...row('password (cached)', r.password), ...cpu(r.cpuUs.password)],
      [...row('API key (verified each request)', r.key), ...cpu(r.cpuUs.key)],
    ]),
    `one HMAC-SHA-256 of a key (the verification's hash, no KDF): ${r.hmacUs.toFixed(2)} us`,
    `ratio key/password: ${r.ratio.toFixed(2)} (target >= 0.90; rounds ${r.roundRatios.map((x) => x.toFixed(2)).join(', ')})`,
  ].join('\n');
}
