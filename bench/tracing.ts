// Tracing overhead: GET /v1/applications/:id through the full stack (gateway -> gRPC ->
// applications -> Postgres) with tracing on (the services' default sampling, or a given share of
// traces sampled; exported over OTLP/HTTP to a no-op collector started here) against the same stack
// with tracing off. Two stacks of separate processes in the same run, loaded at the same time;
// besides req/s, the CPU time the services spend per request on each side. `off` measures two
// untraced stacks against each other: the method's own noise.
import { DEFAULT_SAMPLED_RATIO } from '@switchboard/observability/tracing';
import { exportedSpans } from '../test/support/otlp';
import { startReceiver } from '../test/support/receiver';
import {
  combine,
  type CompareOptions,
  cpuSecondsOf,
  fmt,
  load,
  type LoadResult,
  printComparison,
  startBenchStack,
  type BenchStack,
  type ScenarioResult,
} from './lib';

export type Sampled = number | 'default' | 'off';

/**
 * What the traced stack is measured against: an untraced stack, or one traced the same way but
 * without the Postgres instrumentation (OTEL_NODE_DISABLED_INSTRUMENTATIONS=pg): then the
 * difference is what the Postgres query spans cost.
 */
export const TRACING_BASELINES = ['untraced', 'without-pg'] as const;
export type TracingBaseline = (typeof TRACING_BASELINES)[number];

export interface TracingBenchResult {
  /**
   * Share of new traces sampled; `default`: the services' own setting (no OTEL_TRACES_SAMPLER*);
   * `off`: tracing off on both sides (what the method measures when there is nothing to measure).
   */
  sampled: Sampled;
  /** Each pair of stacks (a traced and an untraced one, new processes), measured alone. */
  pairs: PairResult[];
  /**
   * Traced / untraced: req/s (geometric mean over the pairs) and CPU per request (geometric mean
   * of every round's ratio, over all pairs).
   */
  rpsRatio: number;
  cpuRatio: number;
  /**
   * 95% interval of cpuRatio, from the spread of the pairs' own figures (Student's t over the
   * pairs): the rounds of one pair share its processes, whose luck moves the whole pair (two
   * pairs of one run read +14% and +25%), so the rounds are not independent measurements. With
   * one pair, from the spread of its rounds (narrower than the truth).
   */
  cpuRatioInterval: [number, number];
  /** What the collector received from the traced stacks. */
  exported: { requests: number; spans: number; bytes: number };
  /** Requests per second sent to each stack (BENCH_TRACING_RATE), or undefined: as many as answered. */
  rate?: number;
  /** What the traced stack was measured against. */
  baseline: TracingBaseline;
}

export interface PairResult {
  /** Which stack of the pair started first (the second-started one tends to measure cheaper). */
  first: 'on' | 'off';
  scenario: ScenarioResult;
  /**
   * CPU time of the gateway and applications processes per request, in microseconds, over every
   * measurement of each stack: a figure that a busy machine disturbs far less than req/s.
   */
  cpuPerRequestUs: { on: number; off: number };
  /** The same by service: applications, gateway. */
  cpuPerRequestUsByService: { on: Record<string, number>; off: Record<string, number> };
  /** Each round's CPU per request, traced / untraced (both stacks measured over the same seconds). */
  cpuRoundRatios: number[];
}

/**
 * Answers every OTLP/HTTP export with 200 and keeps it: the spans are counted (decoded) by `count`,
 * between measurements, so that a collector, which runs on other machines in production, takes no
 * CPU from this one while the stacks are measured beyond reading what arrives.
 */
async function startNoopCollector(): Promise<{
  url: string;
  stats: TracingBenchResult['exported'];
  count(): void;
  close(): Promise<void>;
}> {
  const stats = { requests: 0, spans: 0, bytes: 0 };
  let received: { body: Buffer; contentType: string | undefined }[] = [];
  const rx = await startReceiver({
    keep: false,
    observe: (r) => {
      stats.bytes += r.bytes.length;
      stats.requests++;
      received.push({ body: r.bytes, contentType: r.headers['content-type'] as string | undefined });
    },
  });
  const answer = { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' };
  rx.on('/v1/traces', () => answer);
  return {
    url: `http://127.0.0.1:${rx.port}`,
    stats,
    count() {
      for (const { body, contentType } of received) stats.spans += exportedSpans(body, contentType).length;
      received = [];
    },
    close: () => rx.close(),
  };
}

async function createApplication(stack: BenchStack): Promise<string> {
  const post = () =>
    fetch(`http://127.0.0.1:${stack.gatewayPort}/v1/applications`, {
      method: 'POST',
      headers: stack.headers,
      body: JSON.stringify({
        name: 'bench',
        voiceUrl: 'https://example.com/voice',
        messagingUrl: 'https://example.com/sms',
      }),
    });
  // A kept-alive connection from the readiness polls may be closed by the gateway as it is reused.
  const res = await post().catch(post);
  if (res.status !== 200) throw new Error(`creating an application: ${res.status}`);
  return ((await res.json()) as { href: string }).href.split('/').pop()!;
}

/**
 * `sampled`: the fraction of new traces recorded and exported (OTEL_TRACES_SAMPLER_ARG of the traced
 * stack, parentbased_traceidratio), `default` to give the services no sampler setting at all, or
 * `off` for two untraced stacks.
 * `pairs`: how many pairs of stacks are measured one after the other, started alternately
 * untraced-first and traced-first. One stack of processes differs from the next by a few percent in
 * CPU per request whatever its tracing (JIT and scheduling luck), so one pair is a coarse figure.
 * `warmUpSeconds`: how long both stacks of a pair are loaded before anything is counted.
 */
export async function runTracingBench(
  opts: CompareOptions,
  sampled: Sampled = 'default',
  pairs = 1,
  warmUpSeconds = 10,
  rate?: number,
  baseline: TracingBaseline = 'untraced',
): Promise<TracingBenchResult> {
  const collector = await startNoopCollector();
  try {
    const results: PairResult[] = [];
    for (let i = 0; i < pairs; i++) {
      results.push(
        await measurePair(opts, sampled, collector.url, i % 2 === 0 ? 'off' : 'on', warmUpSeconds, rate, baseline),
      );
      collector.count();
    }
    const cpu =
      results.length > 1
        ? geometricMeanOfGroups(results.map((r) => r.cpuRoundRatios))
        : geometricMean(results[0]!.cpuRoundRatios);
    return {
      sampled,
      pairs: results,
      rpsRatio: geometricMean(results.map((r) => r.scenario.stack.rps / r.scenario.baseline.rps)).mean,
      cpuRatio: cpu.mean,
      cpuRatioInterval: cpu.interval95,
      exported: { ...collector.stats },
      rate,
      baseline,
    };
  } finally {
    await collector.close();
  }
}

/** Student's t at 97.5% by degrees of freedom (1-30; beyond, the normal's 1.96). */
const T975 = [
  12.71, 4.3, 3.18, 2.78, 2.57, 2.45, 2.36, 2.31, 2.26, 2.23, 2.2, 2.18, 2.16, 2.14, 2.13, 2.12, 2.11, 2.1, 2.09, 2.09,
  2.08, 2.07, 2.07, 2.06, 2.06, 2.06, 2.05, 2.05, 2.05, 2.04,
];

const average = (xs: readonly number[]): number => xs.reduce((a, x) => a + x, 0) / xs.length;

/** The mean of `xs` (logarithms of ratios) and the half-width of its 95% interval (Student's t). */
function meanWithHalfWidth(xs: readonly number[]): { mean: number; half: number } {
  const n = xs.length;
  const m = average(xs);
  if (n < 2) return { mean: m, half: 0 };
  const sd = Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (n - 1));
  return { mean: m, half: ((T975[n - 2] ?? 1.96) * sd) / Math.sqrt(n) };
}

const fromLogs = ({ mean, half }: { mean: number; half: number }): { mean: number; interval95: [number, number] } => ({
  mean: Math.exp(mean),
  interval95: [Math.exp(mean - half), Math.exp(mean + half)],
});

/** The geometric mean of `ratios` and its 95% interval, the ratios taken as independent. */
function geometricMean(ratios: readonly number[]): { mean: number; interval95: [number, number] } {
  return fromLogs(meanWithHalfWidth(ratios.map(Math.log)));
}

/**
 * The geometric mean of every ratio of `groups` (each group a pair's rounds, as many in each) and
 * its 95% interval from the spread of the groups' own geometric means.
 */
function geometricMeanOfGroups(groups: readonly (readonly number[])[]): { mean: number; interval95: [number, number] } {
  return fromLogs(meanWithHalfWidth(groups.map((g) => average(g.map(Math.log)))));
}

/** A traced and an untraced stack, started in the order `first` says, loaded at the same time and measured against each other. */
async function measurePair(
  opts: CompareOptions,
  sampled: Sampled,
  collectorUrl: string,
  first: 'on' | 'off',
  warmUpSeconds: number,
  rate: number | undefined,
  baseline: TracingBaseline,
): Promise<PairResult> {
  const stacks: BenchStack[] = [];
  try {
    const sampler: Record<string, string> =
      typeof sampled !== 'number'
        ? {}
        : { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: String(sampled) };
    const tracedEnv = { OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl, ...sampler };
    // The `off` side: untraced, or traced without Postgres spans.
    const baselineEnv: Record<string, string> =
      baseline === 'without-pg' ? { ...tracedEnv, OTEL_NODE_DISABLED_INSTRUMENTATIONS: 'pg' } : {};
    const start = async (traced: boolean) => {
      const stack = await startBenchStack({
        baseline: false,
        serviceEnv: sampled === 'off' ? {} : traced ? tracedEnv : baselineEnv,
      });
      stacks.push(stack);
      return stack;
    };
    const firstStack = await start(first === 'on');
    const second = await start(first !== 'on');
    const [on, off] = first === 'on' ? [firstStack, second] : [second, firstStack];
    const [offId, onId] = await Promise.all([createApplication(off), createApplication(on)]);
    // CPU seconds by service process (applications, gateway: startBenchStack's order) and requests.
    const services = ['applications', 'gateway'];
    const cpu = { on: { seconds: [0, 0], requests: 0 }, off: { seconds: [0, 0], requests: 0 } };
    const cpuOf = (side: 'on' | 'off') => (side === 'on' ? on : off).servicePids.map(cpuSecondsOf);
    // Both stacks are loaded at the same time, each by its own connections: whatever else the
    // machine does in a second (a noisy neighbour, Postgres's own work, the load generator's
    // garbage collection) falls on both sides alike. Measured one after the other, as this
    // benchmark did before 2026-11-25, two untraced stacks differed by up to 30% in a pair.
    const loadBoth = (seconds: number) =>
      Promise.all(
        (
          [
            [on, onId],
            [off, offId],
          ] as const
        ).map(([stack, id]) =>
          load({
            url: `http://127.0.0.1:${stack.gatewayPort}/v1/applications/${id}`,
            headers: stack.headers,
            connections: opts.connections,
            seconds,
            rate,
          }),
        ),
      );
    // Long-running processes are what the overhead is about, not their first seconds (the traced
    // ones have more code to compile): both stacks are loaded for warmUpSeconds before anything is counted.
    await loadBoth(warmUpSeconds);
    // Everything the processes burn while they serve counts, timers and exports included: no idle
    // use is taken off (a window measured idle read 0.0075 and 0.04 CPU-seconds per second for two
    // processes of the same code, and taken off 25 s of load that swung a pair by 25 points).
    const rounds: { on: LoadResult; off: LoadResult }[] = [];
    const cpuRoundRatios: number[] = [];
    for (let i = 0; i < opts.rounds; i++) {
      const before = { on: cpuOf('on'), off: cpuOf('off') };
      const [onRound, offRound] = await loadBoth(opts.seconds);
      // The spans of the last requests are still being exported, and their cost belongs to this
      // measurement: wait for the export interval (on both sides alike).
      await new Promise((res) => setTimeout(res, 1200));
      const perRequestNow: Record<'on' | 'off', number> = { on: 0, off: 0 };
      for (const [side, r] of [
        ['on', onRound!],
        ['off', offRound!],
      ] as const) {
        const used = cpuOf(side).map((c, k) => c - before[side][k]!);
        for (const [k, c] of used.entries()) cpu[side].seconds[k]! += c;
        cpu[side].requests += r.total;
        perRequestNow[side] = used.reduce((a, b) => a + b, 0) / r.total;
      }
      // A round's ratio compares the two stacks over the same seconds: what the machine's other
      // work does to CPU per request in those seconds (it moved both sides together by up to 2.5x
      // from one round to the next) falls on both and cancels out.
      cpuRoundRatios.push(perRequestNow.on / perRequestNow.off);
      rounds.push({ on: onRound!, off: offRound! });
    }
    const perRequest = (c: { seconds: number[]; requests: number }) =>
      Object.fromEntries(services.map((name, i) => [name, (c.seconds[i]! / c.requests) * 1e6]));
    const sum = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);
    const byService = { on: perRequest(cpu.on), off: perRequest(cpu.off) };
    const cpuPerRequestUs = { on: sum(byService.on), off: sum(byService.off) };
    const scenario: ScenarioResult = {
      name: `GET /v1/applications/:id (${sideName(baseline, first)} started first)`,
      stack: combine(rounds.map((r) => r.on)),
      baseline: combine(rounds.map((r) => r.off)),
      roundRatios: rounds.map((r) => r.on.rps / r.off.rps),
      cpuUs: { stack: cpuPerRequestUs.on, baseline: cpuPerRequestUs.off },
    };
    return { first, scenario, cpuPerRequestUs, cpuPerRequestUsByService: byService, cpuRoundRatios };
  } finally {
    await Promise.all(stacks.map((s) => s.stop()));
  }
}

/** How a side of a pair is called: the traced one and its baseline. */
function sideName(baseline: TracingBaseline, side: 'on' | 'off'): string {
  if (baseline === 'without-pg') return side === 'on' ? 'with Postgres spans' : 'without Postgres spans';
  return side === 'on' ? 'traced' : 'untraced';
}

/**
 * One run's table and figures. The target (overhead under 10%) is judged on the run at the
 * services' default sampling, the setting they run with, on the means over its pairs; other runs
 * say how they compare.
 */
export function printTracingResults(r: TracingBenchResult, connections: number): string {
  const overhead = (1 - r.rpsRatio) * 100;
  const cpuOverhead = (r.cpuRatio - 1) * 100;
  const signed = (x: number) => `${x >= 0 ? '+' : ''}${fmt(x, 1)}%`;
  const sampling =
    r.sampled === 'default'
      ? `the default sampling (${fmt(DEFAULT_SAMPLED_RATIO * 100)}% of new traces)`
      : r.sampled === 'off'
        ? ''
        : `${fmt(r.sampled * 100)}% of traces sampled`;
  const load = `${r.pairs.length} pair(s) of stacks${r.rate ? `, ${fmt(r.rate)} requests/s to each` : ''}`;
  const pgShare = r.baseline === 'without-pg' && r.sampled !== 'off';
  const title =
    r.sampled === 'off'
      ? `Tracing benchmark's noise: two untraced stacks against each other, ${r.pairs.length} pair(s) of stacks`
      : pgShare
        ? `Postgres spans' cost: full stack traced at ${sampling} with the pg instrumentation (stack) vs without it (OTEL_NODE_DISABLED_INSTRUMENTATIONS=pg, baseline), ${load}`
        : `Tracing overhead: full stack with tracing on, ${sampling} (stack), vs off (baseline), ${load}`;
  // At a fixed rate both stacks answer the same requests per second: CPU per request is the figure.
  const within = r.rate ? cpuOverhead < 10 : overhead < 10 && cpuOverhead < 10;
  const figures = `${r.rate ? `at ${fmt(r.rate)} requests/s to each stack, ` : ''}req/s ${fmt(overhead, 1)}%, CPU per request ${signed(cpuOverhead)} (geometric means of ${r.pairs.length} pair${r.pairs.length === 1 ? '' : 's'}, CPU over their ${r.pairs.reduce((a, p) => a + p.cpuRoundRatios.length, 0)} rounds, 95% interval${r.pairs.length > 1 ? ' from the pairs' : " from one pair's rounds"} ${signed((r.cpuRatioInterval[0] - 1) * 100)} to ${signed((r.cpuRatioInterval[1] - 1) * 100)})`;
  return [
    printComparison(
      title,
      r.pairs.map((p) => p.scenario),
      connections,
      false,
      'rounds, both stacks loaded at once',
    ),
    ...r.pairs.map(
      (p) =>
        `${sideName(r.baseline, p.first)} started first: req/s ratio ${fmt((p.scenario.stack.rps / p.scenario.baseline.rps) * 100, 1)}%, p99 ratio ${fmt((p.scenario.stack.p99 / p.scenario.baseline.p99) * 100, 1)}%; CPU of gateway + applications per request: on ${fmt(p.cpuPerRequestUs.on)} us, off ${fmt(p.cpuPerRequestUs.off)} us (by round ${p.cpuRoundRatios.map((x) => signed((x - 1) * 100)).join(' ')}); ${Object.keys(
          p.cpuPerRequestUsByService.on,
        )
          .map(
            (name) =>
              `${name} ${fmt(p.cpuPerRequestUsByService.on[name]!)} vs ${fmt(p.cpuPerRequestUsByService.off[name]!)} us`,
          )
          .join(', ')}`,
    ),
    `${r.sampled === 'off' ? 'one untraced stack against the other' : pgShare ? 'with/without Postgres spans' : 'tracing on/off'} over the pairs: req/s ratio ${fmt(r.rpsRatio * 100, 1)}% (overhead ${fmt(overhead, 1)}%), CPU per request ${signed(cpuOverhead)}`,
    `exported to the no-op collector: ${fmt(r.exported.spans)} spans in ${fmt(r.exported.requests)} requests (${fmt(r.exported.bytes / 1e6, 1)} MB)`,
    r.sampled === 'off'
      ? `two untraced stacks: the same code differs by ${figures}`
      : pgShare
        ? `the Postgres query spans' share of the overhead: ${figures}`
        : r.sampled === 'default'
          ? `target (at the default sampling): overhead < 10% -> ${figures}: ${within ? 'met' : 'NOT met'}`
          : `not the target's setting: overhead ${figures}: ${within ? 'within' : 'over'} 10%`,
  ].join('\n');
}
