// Shared pieces of the benchmarks: the services as processes on free ports (test/support/launcher.ts),
// autocannon runs, a result table.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon, { type Request as AutocannonRequest } from 'autocannon';
import { applicationsClient } from '@switchboard/proto';
import {
  createTestDatabase,
  freePort,
  newSecretsKey,
  queryDatabase,
  startNatsServer,
  type TestDatabase,
} from '../test/support/infra';
import {
  answers,
  freeServicePorts,
  launchProcess,
  portEnv,
  ROOT,
  serviceProcess,
  TSX_ARGS,
  type LaunchedProcess,
  type ServiceName,
  type ServiceProcess,
} from '../test/support/launcher';

export const root = ROOT;

/** Where CPU profiles go (BENCH_CPU_PROF). */
export const profileDir = join(root, 'bench', 'results', 'profiles');

/**
 * Node flags of a benchmarked process: `--cpu-prof` when BENCH_CPU_PROF names it (a comma-separated
 * list of process names such as `dispatcher,webhooks`); when the process exits, one profile per
 * thread (tsx runs a loader thread too) is written to bench/results/profiles/<name>-<time>/
 * (summarise the main thread's with `npx tsx bench/profile.ts`).
 */
export function nodeFlags(name: string): string[] {
  const wanted = (process.env.BENCH_CPU_PROF ?? '').split(',').map((s) => s.trim());
  return wanted.includes(name) ? ['--cpu-prof', `--cpu-prof-dir=${join(profileDir, `${name}-${Date.now()}`)}`] : [];
}

/**
 * A service of a benchmark as a process (not started): its output shown only when it fails, a CPU
 * profile when BENCH_CPU_PROF names it; ready on /readyz (`/healthz` for gateways, which a stack
 * without webhooks never makes ready).
 */
export function benchService(
  service: ServiceName,
  env: Record<string, string>,
  o: { name?: string; servicesDir?: string } = {},
): ServiceProcess {
  const name = o.name ?? service;
  return serviceProcess(service, {
    name,
    env,
    nodeFlags: nodeFlags(name),
    ...(service === 'gateway' ? { readyPath: '/healthz' as const } : {}),
    ...(o.servicesDir ? { servicesDir: o.servicesDir } : {}),
  });
}

/**
 * What a benchmark's stack stands on: a fresh database, a private NATS, the environment of its
 * services (`serviceEnv` last), the list of its processes, and stop() for all of them.
 */
async function benchBase(serviceEnv: Record<string, string> = {}) {
  const db = await createTestDatabase();
  const nats = await startNatsServer();
  const procs: LaunchedProcess[] = [];
  const env: Record<string, string> = {
    DATABASE_URL: db.url,
    NATS_URL: nats.url,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    SECRETS_KEY: newSecretsKey(),
    ...serviceEnv,
  };
  const stop = async () => {
    await Promise.all(procs.map((p) => p.stop()));
    await nats.destroy();
    await db.drop();
  };
  return { db, nats, env, procs, stop };
}

/** A baseline server of bench/baseline/ (ready when it refuses an unauthenticated list), started. */
async function startBaseline(name: string, script: string, port: number, env: Record<string, string>) {
  const p = launchProcess({
    name,
    script,
    cwd: join(root, 'bench'),
    nodeFlags: nodeFlags(name),
    env: { ...env, PORT: String(port) },
    ready: answers(`http://127.0.0.1:${port}/v1/applications`, 401),
  });
  await p.start();
  return p;
}

export interface LoadResult {
  rps: number;
  /** Requests answered. */
  total: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** Responses by status code, when autocannon reports them. */
  statusCodes?: Record<string, number>;
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST' | 'PUT';
  headers?: Record<string, string>;
  body?: string | (() => string);
  /** A path computed per request (overrides the path of `url`). */
  path?: () => string;
  connections: number;
  seconds: number;
  /** Requests per second over all connections (an open loop at that rate); unset: each connection sends as fast as it is answered. */
  rate?: number;
}

export async function load(o: LoadOptions): Promise<LoadResult> {
  const { body, path } = o;
  const perRequest = typeof body === 'function' || path !== undefined;
  const result = await autocannon({
    url: o.url,
    method: o.method ?? 'GET',
    headers: o.headers ?? {},
    connections: o.connections,
    duration: o.seconds,
    ...(o.rate ? { overallRate: o.rate } : {}),
    ...(typeof body === 'string' ? { body } : {}),
    ...(perRequest
      ? {
          requests: [
            {
              setupRequest: (req: AutocannonRequest) => ({
                ...req,
                ...(typeof body === 'function' ? { body: body() } : {}),
                ...(path ? { path: path() } : {}),
              }),
            },
          ],
        }
      : {}),
  });
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count ?? 0]),
  );
  return {
    rps: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    statusCodes,
  };
}

export interface BenchStack {
  db: TestDatabase;
  /** DATABASE_URL, NATS_URL, LOG_LEVEL and HOST as the services got them. */
  env: Record<string, string>;
  gatewayPort: number;
  baselinePort: number;
  /** The lean baseline's port and process id (0 without one: only when asked for). */
  leanPort: number;
  leanPid: number;
  /** Basic credentials of the `bench` account and a JSON content type. */
  headers: Record<string, string>;
  /** Process ids of the services (not the baseline). */
  servicePids: number[];
  /** Process id of the baseline server (0 without one). */
  baselinePid: number;
  stop(): Promise<void>;
}

/**
 * A fresh database and a private NATS; applications (and webhooks, when asked) and the gateway as
 * separate processes on free ports, with `serviceEnv` added to their environment; the `bench`
 * account (made with the account command); the baseline server, unless `baseline` is false. Without webhooks, the gateway's webhooks address points at a port nobody serves.
 */
export async function startBenchStack(
  opts: { webhooks?: boolean; baseline?: boolean; lean?: boolean; serviceEnv?: Record<string, string> } = {},
): Promise<BenchStack> {
  const { db, env, procs, stop } = await benchBase(opts.serviceEnv);
  const [apps, webhooks, gateway] = await Promise.all([
    freeServicePorts('applications'),
    freeServicePorts('webhooks'),
    freeServicePorts('gateway'),
  ]);
  const [base, lean] = await Promise.all([freePort(), freePort()]);
  try {
    const applicationsGrpc = `127.0.0.1:${apps.grpc}`;
    const services = [
      benchService('applications', { ...env, ...portEnv('applications', apps) }),
      ...(opts.webhooks
        ? [
            benchService('webhooks', {
              ...env,
              ...portEnv('webhooks', webhooks),
              APPLICATIONS_GRPC_URL: applicationsGrpc,
            }),
          ]
        : []),
      benchService('gateway', {
        ...env,
        ...portEnv('gateway', gateway),
        APPLICATIONS_GRPC_URL: applicationsGrpc,
        // Without webhooks, a port nobody serves.
        WEBHOOKS_GRPC_URL: `127.0.0.1:${webhooks.grpc}`,
        RATE_LIMIT_PER_SECOND: '0',
      }),
    ];
    procs.push(...services);
    await Promise.all(services.map((p) => p.start()));
    createBenchAccount(env);
    if (opts.baseline !== false)
      procs.push(
        await startBaseline('baseline', 'baseline/server.ts', base, {
          DATABASE_URL: db.url,
          SECRETS_KEY: env.SECRETS_KEY!,
        }),
      );
    if (opts.lean) procs.push(await startBaseline('lean', 'baseline/lean.ts', lean, { DATABASE_URL: db.url }));
  } catch (err) {
    await stop();
    throw err;
  }
  const headers = {
    authorization: `Basic ${Buffer.from('bench:bench-password').toString('base64')}`,
    'content-type': 'application/json',
  };
  const servicePids = procs.filter((p) => p.name !== 'baseline' && p.name !== 'lean').map((p) => p.pid()!);
  const baselinePid = procs.find((p) => p.name === 'baseline')?.pid() ?? 0;
  const leanPid = procs.find((p) => p.name === 'lean')?.pid() ?? 0;
  return {
    db,
    env,
    gatewayPort: gateway.api!,
    baselinePort: base,
    leanPort: opts.lean ? lean : 0,
    leanPid,
    headers,
    servicePids,
    baselinePid,
    stop,
  };
}

/**
 * Adds numbers to the inventory with the numbers command (`npm run numbers -- add ...`): `ranges`
 * are its arguments (`+FIRST..+LAST`, at most 100,000 numbers each). Returns how many were added.
 */
export function addInventory(
  env: Record<string, string>,
  ranges: readonly string[],
  details: string[] = ['--country', 'US', '--sms'],
): number {
  const out = execFileSync(
    process.execPath,
    [...TSX_ARGS, 'services/applications/src/numbers-cli.ts', 'add', ...ranges, ...details],
    {
      cwd: root,
      env: { ...process.env, ...env },
    },
  );
  return (JSON.parse(out.toString()) as { added: number }).added;
}

/** Creates an account (password `bench-password`) with the account command; returns its id. */
export function createBenchAccount(env: Record<string, string>, username = 'bench'): string {
  const out = execFileSync(
    process.execPath,
    [
      ...TSX_ARGS,
      'services/applications/src/account-cli.ts',
      'create',
      '--username',
      username,
      '--password',
      'bench-password',
    ],
    {
      cwd: root,
      env: { ...process.env, ...env },
    },
  );
  return String((JSON.parse(out.toString()) as { id: number }).id);
}

export interface DeliveryStack {
  db: TestDatabase;
  natsUrl: string;
  natsPort: number;
  /** The environment every process of the stack got (database, NATS, loopback targets allowed, SECRETS_KEY, `serviceEnv`). */
  env: Record<string, string>;
  applicationsGrpc: string;
  webhooksGrpc: string;
  /** Id of the `bench` account. */
  accountId: string;
  /** The processes in start order: applications, webhooks, then any dispatcher. */
  procs: LaunchedProcess[];
  /** Starts a dispatcher process against the stack (with `env` added) and waits until it is ready. */
  startDispatcher(env?: Record<string, string>): Promise<ServiceProcess & { opsPort: number }>;
  /** Starts a gateway process against the stack (with `env` added); answers its port once it is up. */
  startGateway(env?: Record<string, string>): Promise<number>;
  stop(): Promise<void>;
}

/**
 * What the delivery benchmarks share: a fresh database, a private NATS, the applications and
 * webhooks services as processes on free ports (with `serviceEnv` added to the environment of every
 * process of the stack, dispatchers and gateways included), and the `bench` account.
 */
export async function startDeliveryStack(opts: { serviceEnv?: Record<string, string> } = {}): Promise<DeliveryStack> {
  const { db, nats, env, procs, stop } = await benchBase({ DELIVERY_ALLOWED_CIDRS: '127.0.0.0/8', ...opts.serviceEnv });
  const [apps, webhooks] = await Promise.all([freeServicePorts('applications'), freeServicePorts('webhooks')]);
  const applicationsGrpc = `127.0.0.1:${apps.grpc}`;
  const webhooksGrpc = `127.0.0.1:${webhooks.grpc}`;
  /** Starts one more process of the stack (stopped with it). */
  const start = async (p: ServiceProcess) => {
    procs.push(p);
    await p.start();
    return p;
  };
  try {
    await start(benchService('applications', { ...env, ...portEnv('applications', apps) }));
    await start(
      benchService('webhooks', {
        ...env,
        ...portEnv('webhooks', webhooks),
        APPLICATIONS_GRPC_URL: applicationsGrpc,
      }),
    );
    const accountId = createBenchAccount(env);
    const calls = { APPLICATIONS_GRPC_URL: applicationsGrpc, WEBHOOKS_GRPC_URL: webhooksGrpc };
    return {
      db,
      natsUrl: nats.url,
      natsPort: nats.port,
      env,
      applicationsGrpc,
      webhooksGrpc,
      accountId,
      procs,
      async startDispatcher(more = {}) {
        const d = await start(
          benchService('dispatcher', {
            ...env,
            ...portEnv('dispatcher', { ops: await freePort() }),
            ...calls,
            ...more,
          }),
        );
        return Object.assign(d, { opsPort: d.ports.ops! });
      },
      async startGateway(more = {}) {
        const g = await start(
          benchService('gateway', {
            ...env,
            ...portEnv('gateway', await freeServicePorts('gateway')),
            ...calls,
            ...more,
          }),
        );
        return g.ports.api!;
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** The p-th percentile of ascending values (NaN when empty). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** The usual percentiles of some times, and their maximum (NaN when there are none). */
export interface Percentiles {
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** The percentiles of `values`, in any order. */
export function percentiles(values: readonly number[]): Percentiles {
  const s = [...values].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p90: percentile(s, 90), p99: percentile(s, 99), max: s[s.length - 1] ?? NaN };
}

/** What a scenario loads: the system, its baseline, and the lean baseline when the stack has one. */
export type Target = 'stack' | 'baseline' | 'lean';

export interface Scenario {
  name: string;
  method: 'GET' | 'POST' | 'PUT';
  /** A fixed path, or one computed per request for the system measured. */
  path: string | ((target: Target) => string);
  body?: string | (() => string);
}

export interface ScenarioResult {
  name: string;
  /** Over all rounds: mean req/s, median p50/p99, summed failures. */
  stack: LoadResult;
  baseline: LoadResult;
  /** stack/baseline req/s of each round, in order. */
  roundRatios: number[];
  /** The lean baseline's rounds and stack/lean ratios, when the stack has one. */
  lean?: LoadResult;
  leanRoundRatios?: number[];
  /**
   * CPU time per request over the measured rounds, in microseconds: the stack's services summed
   * (gateway, applications, webhooks) against the baseline's one process; Postgres is on neither.
   * A busy machine disturbs it far less than req/s.
   */
  cpuUs: { stack: number; baseline: number; lean?: number };
}

export interface CompareOptions {
  /** Length of one measurement. */
  seconds: number;
  connections: number;
  /** Measurements per system, alternating with the other system's. */
  rounds: number;
}

/**
 * Each scenario: warm both (JIT, pools, auth cache) for 2 s, then `rounds` short measurements of
 * each, alternating (stack, baseline, baseline, stack, ...), so a noisy neighbour on a shared
 * machine slows both sides alike instead of whichever ran during the slow spell.
 */
export async function compareScenarios(
  stack: BenchStack,
  scenarios: Scenario[],
  opts: CompareOptions,
): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  // BENCH_SCENARIOS=items,:id runs only the scenarios whose name contains one of the given parts.
  const only = (process.env.BENCH_SCENARIOS ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  for (const s of only.length ? scenarios.filter((sc) => only.some((p) => sc.name.includes(p))) : scenarios) {
    const targets: Target[] = stack.leanPid ? ['stack', 'baseline', 'lean'] : ['stack', 'baseline'];
    const portOf = { stack: stack.gatewayPort, baseline: stack.baselinePort, lean: stack.leanPort };
    const run = (target: Target, seconds: number) => {
      const path = s.path;
      return load({
        url: `http://127.0.0.1:${portOf[target]}${typeof path === 'string' ? path : '/'}`,
        method: s.method,
        headers: stack.headers,
        ...(s.body ? { body: s.body } : {}),
        ...(typeof path === 'function' ? { path: () => path(target) } : {}),
        connections: opts.connections,
        seconds,
      });
    };
    for (const target of targets) await run(target, 2);
    const rounds: Record<Target, LoadResult[]> = { stack: [], baseline: [], lean: [] };
    const cpuSeconds: Record<Target, number> = { stack: 0, baseline: 0, lean: 0 };
    const cpuNow = (target: Target) =>
      target === 'stack'
        ? stack.servicePids.reduce((a, pid) => a + cpuSecondsOf(pid), 0)
        : cpuSecondsOf(target === 'baseline' ? stack.baselinePid : stack.leanPid);
    for (let i = 0; i < opts.rounds; i++) {
      // Each round in another order (stack, baseline, lean; baseline, lean, stack; ...).
      const order = targets.map((_, k) => targets[(k + i) % targets.length]!);
      for (const target of order) {
        const before = cpuNow(target);
        rounds[target].push(await run(target, opts.seconds));
        cpuSeconds[target] += cpuNow(target) - before;
      }
    }
    const perRequest = (t: Target) =>
      (cpuSeconds[t] * 1e6) /
      Math.max(
        1,
        rounds[t].reduce((a, r) => a + r.total, 0),
      );
    const result: ScenarioResult = {
      name: s.name,
      stack: combine(rounds.stack),
      baseline: combine(rounds.baseline),
      roundRatios: rounds.stack.map((r, i) => r.rps / rounds.baseline[i]!.rps),
      cpuUs: { stack: perRequest('stack'), baseline: perRequest('baseline') },
    };
    if (stack.leanPid) {
      result.lean = combine(rounds.lean);
      result.leanRoundRatios = rounds.stack.map((r, i) => r.rps / rounds.lean[i]!.rps);
      result.cpuUs.lean = perRequest('lean');
    }
    results.push(result);
    process.stderr.write(
      `  ${s.name}: stack ${fmt(result.stack.rps)} req/s, baseline ${fmt(result.baseline.rps)} req/s${result.lean ? `, lean ${fmt(result.lean.rps)} req/s` : ''}\n`,
    );
  }
  return results;
}

/** Rounds of one system as one result: mean req/s, median p50/p99, summed answers and failures. */
export function combine(rounds: LoadResult[]): LoadResult {
  const median = (xs: number[]) => {
    const v = [...xs].sort((a, b) => a - b);
    return v.length % 2 ? v[(v.length - 1) / 2]! : (v[v.length / 2 - 1]! + v[v.length / 2]!) / 2;
  };
  const statusCodes: Record<string, number> = {};
  for (const r of rounds)
    for (const [code, n] of Object.entries(r.statusCodes ?? {})) statusCodes[code] = (statusCodes[code] ?? 0) + n;
  return {
    rps: rounds.reduce((a, r) => a + r.rps, 0) / rounds.length,
    total: rounds.reduce((a, r) => a + r.total, 0),
    p50: median(rounds.map((r) => r.p50)),
    p99: median(rounds.map((r) => r.p99)),
    non2xx: rounds.reduce((a, r) => a + r.non2xx, 0),
    errors: rounds.reduce((a, r) => a + r.errors, 0),
    statusCodes,
  };
}

/**
 * The result table. `detail` shows non-2xx answers and transport errors (timeouts included) apart,
 * as stack/baseline, with the non-2xx status codes; otherwise one column sums them all.
 */
export function printComparison(
  title: string,
  results: ScenarioResult[],
  connections: number,
  detail = false,
  rounds = 'alternating rounds',
): string {
  const head = [
    'scenario',
    'stack req/s',
    'stack p99 ms',
    'baseline req/s',
    'baseline p99 ms',
    'ratio (stack/baseline)',
    'ratio by round',
    'CPU us/req (stack/baseline)',
  ];
  const rows = [detail ? [...head, 'non-2xx (stack/baseline)', 'errors (stack/baseline)'] : [...head, 'errors']];
  for (const r of results) {
    const row = [
      r.name,
      fmt(r.stack.rps),
      fmt(r.stack.p99, 1),
      fmt(r.baseline.rps),
      fmt(r.baseline.p99, 1),
      `${fmt((r.stack.rps / r.baseline.rps) * 100, 1)}%`,
      r.roundRatios.map((x) => `${fmt(x * 100)}%`).join(' '),
      r.cpuUs.baseline > 0 ? `${fmt(r.cpuUs.stack)}/${fmt(r.cpuUs.baseline)}` : '-',
    ];
    if (detail) row.push(`${non2xx(r.stack)}/${non2xx(r.baseline)}`, `${r.stack.errors}/${r.baseline.errors}`);
    else row.push(String(r.stack.non2xx + r.stack.errors + r.baseline.non2xx + r.baseline.errors));
    rows.push(row);
  }
  const count = results[0]?.roundRatios.length ?? 0;
  const out = `${title} (${connections} connections; req/s the mean and p99 the median of ${count} ${rounds})\n${table(rows)}`;
  const withLean = results.filter((r) => r.lean);
  if (withLean.length === 0) return out;
  const lean = [
    [
      'scenario',
      'stack req/s',
      'stack p99 ms',
      'lean req/s',
      'lean p99 ms',
      'ratio (stack/lean)',
      'ratio by round',
      'CPU us/req (stack/lean)',
      'errors',
    ],
  ];
  for (const r of withLean)
    lean.push([
      r.name,
      fmt(r.stack.rps),
      fmt(r.stack.p99, 1),
      fmt(r.lean!.rps),
      fmt(r.lean!.p99, 1),
      `${fmt((r.stack.rps / r.lean!.rps) * 100, 1)}%`,
      r.leanRoundRatios!.map((x) => `${fmt(x * 100)}%`).join(' '),
      `${fmt(r.cpuUs.stack)}/${fmt(r.cpuUs.lean ?? 0)}`,
      String(r.lean!.non2xx + r.lean!.errors),
    ]);
  return `${out}\n\nAgainst the lean baseline (node:http, one prepared select per request, the same auth cache, no batching: bench/baseline/lean.ts)\n${table(lean)}`;
}

function non2xx(r: LoadResult): string {
  const codes = Object.entries(r.statusCodes ?? {}).filter(([c]) => !c.startsWith('2'));
  return codes.length ? `${r.non2xx} (${codes.map(([c, n]) => `${c}: ${n}`).join(', ')})` : String(r.non2xx);
}

/** Aligned columns; a short row leaves its last cells empty. */
export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows
    .map((r) =>
      r
        .map((c, i) => (c ?? '').padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** CPU time (user + system) a process has used so far, in seconds (Linux /proc; 0 once it is gone). */
export function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces and parentheses) start at field 3.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100; // utime + stime, in USER_HZ ticks
  } catch {
    return 0;
  }
}

export const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/**
 * Partitions of `webhooks.<table>` for every day from `days` days ago to three days ahead, as the
 * webhooks service makes them (`<table>_pYYYYMMDD`), for seeding a window of past rows.
 */
export async function makeDailyPartitions(url: string, table: 'alerts' | 'deliveries', days: number): Promise<void> {
  await queryDatabase(
    url,
    `do $$ declare d timestamptz; begin
       for d in select generate_series(date_trunc('day', now() - interval '${days} days', 'UTC'), date_trunc('day', now(), 'UTC') + interval '3 days', interval '1 day') loop
         execute format('create table if not exists webhooks.%I partition of webhooks.${table} for values from (%L) to (%L)',
           '${table}_p' || to_char(d at time zone 'UTC', 'YYYYMMDD'), d, d + interval '1 day');
       end loop;
     end $$`,
  );
}

/** Creates the application `bench` of the stack's account, whose voice URL is `voiceUrl`; answers its id. */
export async function createBenchApplication(stack: DeliveryStack, voiceUrl: string): Promise<string> {
  const apps = applicationsClient(stack.applicationsGrpc);
  try {
    const { application } = await apps.createApplication({ accountId: stack.accountId, name: 'bench', voiceUrl });
    return application!.id;
  } finally {
    apps.close();
  }
}
