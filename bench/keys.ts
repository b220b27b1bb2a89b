// API keys on the hot path, on the default configuration (the gateway remembers a verified key for
// API_KEY_CACHE_TTL_MS and forgets it when its revocation is announced over NATS): GET by id, the
// list of applications and the list of API keys with a Bearer key, against the same GETs with the
// account password from the gateway's cache of verified passwords. Same stack, alternating rounds.
// Also the CPU time of each service process per request on either side.
import { combine, cpuSecondsOf, fmt, load, startBenchStack, table, type LoadResult } from './lib';

/** CPU time per request over the measured rounds, in microseconds, by service process. */
export interface CpuPerRequest {
  gateway: number;
  applications: number;
}

/** One route's figures: the key against the cached password. */
export interface KeysRouteResult {
  route: string;
  password: LoadResult;
  key: LoadResult;
  ratio: number;
  roundRatios: number[];
  cpuUs: { password: CpuPerRequest; key: CpuPerRequest };
}

export interface KeysBenchResult {
  routes: KeysRouteResult[];
}

export async function runKeysBench(opts: {
  seconds: number;
  rounds: number;
  connections: number;
}): Promise<KeysBenchResult> {
  const stack = await startBenchStack({ baseline: false });
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
    const routes: KeysRouteResult[] = [];
    for (const path of [`/v1/applications/${id}`, '/v1/applications', '/v1/api-keys']) {
      const run = (which: 'password' | 'key', seconds: number) =>
        load({ url: url(path), headers: headers[which], connections: opts.connections, seconds });
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
      routes.push({
        route: path.replace(id, ':id'),
        cpuUs: { password: perRequest('password'), key: perRequest('key') },
        password,
        key: keyed,
        ratio: keyed.rps / password.rps,
        roundRatios: rounds.key.map((r, i) => r.rps / rounds.password[i]!.rps),
      });
    }
    return { routes };
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
    `API keys (Bearer, default configuration: verified keys remembered until revoked) vs the cached password (${connections} connections)`,
    table([
      ['route', 'credential', 'req/s', 'p50 ms', 'p99 ms', 'failed', 'CPU us/req gateway', 'CPU us/req applications'],
      ...r.routes.flatMap((x) => [
        [`GET ${x.route}`, ...row('password (cached)', x.password), ...cpu(x.cpuUs.password)],
        ['', ...row('API key', x.key), ...cpu(x.cpuUs.key)],
      ]),
    ]),
    ...r.routes.map(
      (x) =>
        `GET ${x.route}: ratio key/password ${x.ratio.toFixed(2)} (target >= 0.90; rounds ${x.roundRatios.map((y) => y.toFixed(2)).join(', ')})`,
    ),
  ].join('\n');
}
