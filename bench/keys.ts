// API keys on the hot path: GET /v1/applications/:id with every request verifying its API key
// (Bearer; the gateway's cache of verified keys off, API_KEY_CACHE_TTL_MS=0: one VerifyApiKey call,
// a keyed hash and an index lookup, per request), against the same GET with the account password
// from the gateway's cache of verified passwords. Same stack, alternating rounds.
import { combine, fmt, load, startBenchStack, table, type LoadResult } from './lib';

export interface KeysBenchResult {
  password: LoadResult;
  key: LoadResult;
  ratio: number;
  roundRatios: number[];
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
    for (let i = 0; i < opts.rounds; i++) {
      for (const which of i % 2 === 0 ? (['password', 'key'] as const) : (['key', 'password'] as const))
        rounds[which].push(await run(which, opts.seconds));
    }
    const password = combine(rounds.password);
    const keyed = combine(rounds.key);
    return {
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
  return [
    `API keys: GET /v1/applications/:id, every request verifying its key (no cache) vs the cached password (${connections} connections)`,
    table([
      ['credential', 'req/s', 'p50 ms', 'p99 ms', 'failed'],
      row('password (cached)', r.password),
      row('API key (verified each request)', r.key),
    ]),
    `ratio key/password: ${r.ratio.toFixed(2)} (target >= 0.90; rounds ${r.roundRatios.map((x) => x.toFixed(2)).join(', ')})`,
  ].join('\n');
}
