// Tracing overhead: GET /v1/applications/:id through the full stack (gateway -> gRPC ->
// applications -> Postgres) with tracing on (the services' default sampling, or a given share of
// traces sampled; exported over OTLP/HTTP to a no-op collector started here) against the same stack
// with tracing off. Two stacks of separate processes in the same run, measured in alternating rounds
// (bench/lib compareScenarios); besides req/s, the CPU time the services spend per request on each side.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_SAMPLED_RATIO } from '@switchboard/platform/tracing';
import { exportedSpans } from '../test/support/otlp';
import { compareScenarios, type CompareOptions, cpuSecondsOf, fmt, printComparison, startBenchStack, type BenchStack, type ScenarioResult } from './lib';

export interface TracingBenchResult {
  /** Share of new traces sampled; `default`: the services' own setting (no OTEL_TRACES_SAMPLER*). */
  sampled: number | 'default';
  scenario: ScenarioResult;
  /**
   * CPU time of the gateway and applications processes per request, in microseconds, over every
   * measurement of each stack: a figure that a busy machine disturbs far less than req/s.
   */
  cpuPerRequestUs: { on: number; off: number };
  /** The same by service: applications, gateway. */
  cpuPerRequestUsByService: { on: Record<string, number>; off: Record<string, number> };
  /** What the collector received from the traced stack. */
  exported: { requests: number; spans: number; bytes: number };
}

/** Answers every OTLP/HTTP export with 200 and counts what arrives. */
async function startNoopCollector(): Promise<{ url: string; stats: TracingBenchResult['exported']; close(): Promise<void> }> {
  const stats = { requests: 0, spans: 0, bytes: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      stats.bytes += body.length;
      stats.spans += exportedSpans(body, req.headers['content-type']).length;
      stats.requests++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stats,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function createApplication(stack: BenchStack): Promise<string> {
  const post = () =>
    fetch(`http://127.0.0.1:${stack.gatewayPort}/v1/applications`, {
      method: 'POST',
      headers: stack.headers,
      body: JSON.stringify({ name: 'bench', voiceUrl: 'https://example.com/voice', messagingUrl: 'https://example.com/sms' }),
    });
  // A kept-alive connection from the readiness polls may be closed by the gateway as it is reused.
  const res = await post().catch(post);
  if (res.status !== 200) throw new Error(`creating an application: ${res.status}`);
  return ((await res.json()) as { href: string }).href.split('/').pop()!;
}

/**
 * `sampled`: the fraction of new traces recorded and exported (OTEL_TRACES_SAMPLER_ARG of the traced
 * stack, parentbased_traceidratio), or `default` to give the services no sampler setting at all.
 */
export async function runTracingBench(opts: CompareOptions, sampled: number | 'default' = 'default'): Promise<TracingBenchResult> {
  const collector = await startNoopCollector();
  const stacks: BenchStack[] = [];
  try {
    const off = await startBenchStack({ baseline: false });
    stacks.push(off);
    const sampler: Record<string, string> = sampled === 'default' ? {} : { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: String(sampled) };
    const on = await startBenchStack({ baseline: false, serviceEnv: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, ...sampler } });
    stacks.push(on);
    const [offId, onId] = await Promise.all([createApplication(off), createApplication(on)]);
    // compareScenarios measures "stack" against "baseline": here the traced stack against the untraced one.
    // CPU seconds by service process (applications, gateway: startBenchStack's order) and requests.
    const services = ['applications', 'gateway'];
    const cpu = { stack: { seconds: [0, 0], requests: 0 }, baseline: { seconds: [0, 0], requests: 0 } };
    const cpuOf = (target: 'stack' | 'baseline') => (target === 'stack' ? on : off).servicePids.map(cpuSecondsOf);
    // What each stack burns doing nothing (timers, polls, heartbeats) is not the requests' cost:
    // measured idle first, and taken off every measurement in proportion to its length.
    const idle = { stack: [0, 0], baseline: [0, 0] };
    const idleSeconds = 4;
    const idleBefore = { stack: cpuOf('stack'), baseline: cpuOf('baseline') };
    await new Promise((res) => setTimeout(res, idleSeconds * 1000));
    for (const t of ['stack', 'baseline'] as const) idle[t] = cpuOf(t).map((c, i) => (c - idleBefore[t][i]!) / idleSeconds);
    const [scenario] = await compareScenarios(
      { ...on, baselinePort: off.gatewayPort },
      [{ name: 'GET /v1/applications/:id', method: 'GET', path: (target) => `/v1/applications/${target === 'stack' ? onId : offId}` }],
      opts,
      async (target, measure) => {
        const before = cpuOf(target);
        const started = performance.now();
        const r = await measure();
        // The spans of the last requests are still being exported, and their cost belongs to this
        // measurement: wait for the export interval (on both sides alike).
        await new Promise((res) => setTimeout(res, 1200));
        const elapsed = (performance.now() - started) / 1000;
        cpuOf(target).forEach((c, i) => (cpu[target].seconds[i]! += c - before[i]! - idle[target][i]! * elapsed));
        cpu[target].requests += r.total;
        return r;
      },
    );
    const perRequest = (c: { seconds: number[]; requests: number }) => Object.fromEntries(services.map((name, i) => [name, (c.seconds[i]! / c.requests) * 1e6]));
    const sum = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);
    const byService = { on: perRequest(cpu.stack), off: perRequest(cpu.baseline) };
    return { sampled, scenario: scenario!, cpuPerRequestUs: { on: sum(byService.on), off: sum(byService.off) }, cpuPerRequestUsByService: byService, exported: { ...collector.stats } };
  } finally {
    await Promise.all(stacks.map((s) => s.stop()));
    await collector.close();
  }
}

/**
 * One run's table and figures. The target (overhead under 10%) is judged on the run at the
 * services' default sampling, the setting they run with; other runs say how they compare.
 */
export function printTracingResults(r: TracingBenchResult, connections: number): string {
  const ratio = r.scenario.stack.rps / r.scenario.baseline.rps;
  const overhead = (1 - ratio) * 100;
  const p99 = r.scenario.stack.p99 / r.scenario.baseline.p99;
  const cpuOverhead = (r.cpuPerRequestUs.on / r.cpuPerRequestUs.off - 1) * 100;
  const sampling = r.sampled === 'default' ? `the default sampling (${fmt(DEFAULT_SAMPLED_RATIO * 100)}% of new traces)` : `${fmt(r.sampled * 100)}% of traces sampled`;
  const within = overhead < 10 && cpuOverhead < 10;
  return [
    printComparison(`Tracing overhead: full stack with tracing on, ${sampling} (stack), vs off (baseline)`, [r.scenario], connections),
    `tracing on/off: req/s ratio ${fmt(ratio * 100, 1)}% (overhead ${fmt(overhead, 1)}%), p99 ratio ${fmt(p99 * 100, 1)}%`,
    `CPU of gateway + applications per request (their idle use deducted): on ${fmt(r.cpuPerRequestUs.on)} us, off ${fmt(r.cpuPerRequestUs.off)} us (+${fmt(cpuOverhead, 1)}%); ${Object.keys(r.cpuPerRequestUsByService.on)
      .map((name) => `${name} ${fmt(r.cpuPerRequestUsByService.on[name]!)} vs ${fmt(r.cpuPerRequestUsByService.off[name]!)} us`)
      .join(', ')}`,
    `exported to the no-op collector: ${fmt(r.exported.spans)} spans in ${fmt(r.exported.requests)} requests (${fmt(r.exported.bytes / 1e6, 1)} MB)`,
    r.sampled === 'default'
      ? `target (at the default sampling): overhead < 10% -> req/s ${fmt(overhead, 1)}%, CPU per request ${fmt(cpuOverhead, 1)}%: ${within ? 'met' : 'NOT met'}`
      : `not the target's setting: overhead req/s ${fmt(overhead, 1)}%, CPU per request ${fmt(cpuOverhead, 1)}%: ${within ? 'within' : 'over'} 10%`,
  ].join('\n');
}
