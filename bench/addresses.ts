// Address claims under concurrency: `clients` concurrent clients, each with its own application,
// POST /v1/applications/:id/addresses {"type": "number", "prefix": ...} through the full stack
// (gateway, applications, Postgres) against an inventory loaded with the numbers command, for a
// fixed time. Prints claims/s and latency, and checks that no number was handed out twice: the
// numbers the answers name are all distinct, and the database holds exactly those, each with the
// application that was told it got it.
import { queryDatabase } from '../test/support/infra';
import { addInventory, fmt, percentile, startBenchStack, table } from './lib';

export interface AddressBenchResult {
  clients: number;
  seconds: number;
  inventory: number;
  claims: number;
  claimsPerSecond: number;
  p50: number;
  p99: number;
  max: number;
  /** Answers other than 200 by status ("error" for transport errors). */
  other: Record<string, number>;
  /** Numbers named by more than one answer. */
  duplicates: number;
  /** Claims answered 200 whose number the database does not hold for that application, and claimed rows no answer named. */
  mismatches: number;
}

/** Exchanges of the loaded inventory, and how many numbers each (one range of the numbers command). */
const EXCHANGES = ['1407', '1312', '1212', '1415'];

export async function runAddressBench(opts: {
  clients: number;
  seconds: number;
  perExchange: number;
}): Promise<AddressBenchResult> {
  const stack = await startBenchStack({ baseline: false });
  try {
    const base = `http://127.0.0.1:${stack.gatewayPort}`;
    const last = String(opts.perExchange - 1).padStart(7, '0');
    const inventory = addInventory(
      stack.env,
      EXCHANGES.map((x) => `+${x}0000000..+${x}${last}`),
    );
    process.stderr.write(`  inventory: ${fmt(inventory)} numbers in ${EXCHANGES.length} exchanges\n`);
    const apps: string[] = [];
    for (let i = 0; i < opts.clients; i++) {
      const res = await fetch(`${base}/v1/applications`, {
        method: 'POST',
        headers: stack.headers,
        body: JSON.stringify({ name: `claims-${i}`, voiceUrl: 'https://example.com/voice' }),
      });
      if (res.status !== 200) throw new Error(`creating an application: ${res.status} ${await res.text()}`);
      apps.push(((await res.json()) as { href: string }).href.split('/').pop()!);
    }

    // Every number an answer named, with the applications it was given to (warm-up included).
    const got = new Map<string, string[]>();
    const claim = async (app: string) => {
      const prefix = EXCHANGES[Math.floor(Math.random() * EXCHANGES.length)]!;
      const started = performance.now();
      try {
        const res = await fetch(`${base}/v1/applications/${app}/addresses`, {
          method: 'POST',
          headers: stack.headers,
          body: JSON.stringify({ type: 'number', prefix }),
        });
        const text = await res.text();
        const ms = performance.now() - started;
        if (res.status !== 200) return { status: String(res.status), ms };
        const number = decodeURIComponent((JSON.parse(text) as { href: string }).href.split('/').pop()!);
        got.set(number, [...(got.get(number) ?? []), app]);
        return { status: '200', ms };
      } catch {
        return { status: 'error', ms: performance.now() - started };
      }
    };

    // Warm-up (JIT, pools, the auth cache), then the measured run: every client claims in a loop.
    await Promise.all(apps.map((a) => claim(a).then(() => claim(a))));
    const latencies: number[] = [];
    const other: Record<string, number> = {};
    const t0 = performance.now();
    const end = t0 + opts.seconds * 1000;
    await Promise.all(
      apps.map(async (app) => {
        while (performance.now() < end) {
          const r = await claim(app);
          if (r.status === '200') latencies.push(r.ms);
          else other[r.status] = (other[r.status] ?? 0) + 1;
        }
      }),
    );
    const elapsed = (performance.now() - t0) / 1000;

    // No number handed out twice, and the database holds exactly the numbers answered, each for the
    // application that was told it got it.
    const duplicates = [...got.values()].filter((owners) => owners.length > 1).length;
    const rows = await queryDatabase<{ number: string; application_id: string }>(
      stack.db.url,
      'select number, application_id from applications.numbers where application_id is not null',
    );
    const held = new Map(rows.map((r) => [r.number, r.application_id]));
    const mismatches =
      [...got].filter(([number, owners]) => held.get(number) !== owners[0]).length +
      [...held.keys()].filter((n) => !got.has(n)).length;

    const sorted = [...latencies].sort((a, b) => a - b);
    const claims = latencies.length;
    const result: AddressBenchResult = {
      clients: opts.clients,
      seconds: elapsed,
      inventory,
      claims,
      claimsPerSecond: claims / elapsed,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted[sorted.length - 1] ?? NaN,
      other,
      duplicates,
      mismatches,
    };
    process.stderr.write(
      `  claims: ${fmt(result.claimsPerSecond)} claims/s, p99 ${fmt(result.p99, 1)} ms, ${duplicates} numbers handed out twice\n`,
    );
    return result;
  } finally {
    await stack.stop();
  }
}

export function printAddressResults(r: AddressBenchResult): string {
  const other =
    Object.entries(r.other)
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ') || 'none';
  return [
    `Address claims: POST /v1/applications/:id/addresses {"type": "number", "prefix"} by ${r.clients} concurrent clients, ${fmt(r.seconds, 1)} s, inventory of ${fmt(r.inventory)} numbers`,
    table([
      ['claims', 'claims/s', 'p50', 'p99', 'max', 'other answers', 'handed out twice', 'database disagrees'],
      [
        fmt(r.claims),
        fmt(r.claimsPerSecond),
        `${fmt(r.p50, 1)} ms`,
        `${fmt(r.p99, 1)} ms`,
        `${fmt(r.max, 1)} ms`,
        other,
        String(r.duplicates),
        String(r.mismatches),
      ],
    ]),
    `no number handed out twice: ${r.duplicates === 0 && r.mismatches === 0 ? 'met' : 'NOT met'}`,
  ].join('\n');
}
