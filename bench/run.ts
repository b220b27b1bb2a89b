// npm run bench [-- api|webhooks|dispatcher|sessions|addresses|launch|tracing|latency|keys|console|search|stats|retention|alerts|limits ...]: runs the benchmarks and prints each against its
// baseline, measured in the same run on the same machine. Never part of `npm test`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { printAddressResults, runAddressBench } from './addresses';
import { printAlertsResults, runAlertsBench } from './alerts';
import { printApiResults, runApiBench } from './api';
import { printConsoleResults, runConsoleBench } from './console';
import { printDeliveriesResults, runDeliveriesBench } from './deliveries';
import { printDispatcherResults, runDispatcherBench } from './dispatcher';
import { printOrderingResults, runOrderingBench } from './ordering';
import { printKeysResults, runKeysBench } from './keys';
import { printLimitsResults, runLimitsBench } from './limits';
import { launchErrors, printLaunchResults, runLaunchBench } from './launch';
import { latencyWithinBounds, printLatencyResults, runLatencyBench } from './latency';
import { root } from './lib';
import { printSessionResults, runSessionBench } from './sessions';
import { printThrottleResults, runThrottleBench } from './throttle';
import { printTracingResults, runTracingBench, TRACING_BASELINES, type Sampled, type TracingBaseline } from './tracing';
import { printWebhooksResults, runWebhooksBench } from './webhooks';

const dispatcherSeconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
// API comparisons: alternating rounds of each system (bench/lib compareScenarios).
const compare = {
  seconds: Number(process.env.BENCH_ROUND_SECONDS ?? 5),
  rounds: Number(process.env.BENCH_ROUNDS ?? 4),
  connections,
};
const wanted = process.argv.slice(2).filter((a) => a !== '--');
const all = [
  'api',
  'webhooks',
  'dispatcher',
  'sessions',
  'addresses',
  'launch',
  'tracing',
  'latency',
  'keys',
  'console',
  'throttle',
];
// Not in the default run (they seed millions of rows): named only.
// `limits` compares two gateways (BENCH_LIMITS_BASE: another checkout's folder): named only.
const known = [...all, 'search', 'stats', 'retention', 'alerts', 'ordering', 'limits'];
const selected = wanted.length ? wanted : all;
const out: string[] = [];
const results: Record<string, unknown> = {};

/** Keeps a benchmark's results under its name and adds its printed table to the output; returns the results. */
function report<R>(name: string, r: R, print: (r: R) => string): R {
  results[name] = r;
  out.push(print(r));
  return r;
}

for (const name of selected) {
  process.stderr.write(`running ${name}\n`);
  if (name === 'api') {
    const r = await runApiBench(compare);
    results.api = r;
    out.push(printApiResults('Applications API: full stack vs single Express process on Postgres', r, connections));
    out.push(apiTargets(r));
  } else if (name === 'keys') {
    const r = await runKeysBench(compare);
    results.keys = r;
    out.push(printKeysResults(r, connections));
  } else if (name === 'limits') {
    report(
      name,
      await runLimitsBench({
        ...compare,
        rate: Number(process.env.BENCH_LIMITS_RATE ?? 1_000_000),
        baseDir: process.env.BENCH_LIMITS_BASE,
      }),
      (r) => printLimitsResults(r, connections),
    );
  } else if (name === 'webhooks') {
    const r = await runWebhooksBench(compare);
    results.webhooks = r;
    out.push(
      printWebhooksResults('Webhook subscriptions: full stack vs single Express process on Postgres', r, connections),
    );
    out.push(apiTargets(r));
  } else if (name === 'dispatcher') {
    report(
      name,
      await runDispatcherBench({
        events: Number(process.env.BENCH_DISPATCHER_EVENTS ?? 10_000),
        warmUpEvents: Number(process.env.BENCH_DISPATCHER_WARMUP ?? 3000),
        latencySeconds: dispatcherSeconds,
        concurrency: Number(process.env.BENCH_DISPATCHER_CONCURRENCY ?? 64),
        hostConcurrency: Number(process.env.BENCH_DISPATCHER_HOST_CONCURRENCY ?? 16),
        hosts: Number(process.env.BENCH_DISPATCHER_HOSTS ?? 8),
      }),
      printDispatcherResults,
    );
  } else if (name === 'ordering') {
    report(
      name,
      await runOrderingBench({
        events: Number(process.env.BENCH_ORDERING_EVENTS ?? 10_000),
        keys: Number(process.env.BENCH_ORDERING_KEYS ?? 1000),
        rounds: Number(process.env.BENCH_ORDERING_ROUNDS ?? 2),
      }),
      printOrderingResults,
    );
  } else if (name === 'tracing') {
    // At the services' default sampling (the target's setting) and with every trace sampled;
    // BENCH_TRACING_SAMPLED=0.01,1 names the shares instead (`default` for the default; `off`
    // for two untraced stacks, the method's own noise).
    const shares = (process.env.BENCH_TRACING_SAMPLED ?? 'default,1')
      .split(',')
      .map(
        (s): Sampled => (s.trim() === 'default' || s.trim() === 'off' ? (s.trim() as 'default' | 'off') : Number(s)),
      );
    // BENCH_TRACING_BASELINE: what the traced stack is measured against: `untraced` (the default),
    // or `without-pg`: traced the same way with OTEL_NODE_DISABLED_INSTRUMENTATIONS=pg (the Postgres spans' own cost).
    const baseline = (process.env.BENCH_TRACING_BASELINE ?? 'untraced') as TracingBaseline;
    if (!TRACING_BASELINES.includes(baseline))
      throw new Error(`BENCH_TRACING_BASELINE must be one of ${TRACING_BASELINES.join(', ')}`);
    // BENCH_TRACING_PAIRS pairs of stacks, each pair measured alone (4 by default, two started each way: see runTracingBench).
    const pairs = Number(process.env.BENCH_TRACING_PAIRS ?? 4);
    // BENCH_TRACING_WARMUP: seconds both stacks of a pair are loaded before anything is counted (10).
    const warmUpSeconds = Number(process.env.BENCH_TRACING_WARMUP ?? 10);
    // BENCH_TRACING_RATE: requests per second to each stack (an open loop below saturation), instead of as many as they answer.
    const rate = process.env.BENCH_TRACING_RATE ? Number(process.env.BENCH_TRACING_RATE) : undefined;
    // BENCH_TRACING_ROUNDS: rounds per pair (12; BENCH_ROUNDS otherwise): one round's ratio moves by about 12% with nothing changed.
    const rounds = Number(process.env.BENCH_TRACING_ROUNDS ?? process.env.BENCH_ROUNDS ?? 12);
    const runs = [];
    for (const sampled of shares) {
      const r = await runTracingBench({ ...compare, rounds }, sampled, pairs, warmUpSeconds, rate, baseline);
      runs.push(r);
      out.push(printTracingResults(r, connections));
    }
    results.tracing = runs;
  } else if (name === 'sessions') {
    report(
      name,
      await runSessionBench({
        sessions: Number(process.env.BENCH_SESSIONS ?? 5000),
        latencySeconds: dispatcherSeconds,
        statusSessions: Number(process.env.BENCH_STATUS_SESSIONS ?? 3000),
      }),
      printSessionResults,
    );
  } else if (name === 'addresses') {
    report(
      name,
      await runAddressBench({
        clients: connections,
        seconds: dispatcherSeconds,
        perExchange: Number(process.env.BENCH_ADDRESS_NUMBERS ?? 25_000),
      }),
      printAddressResults,
    );
  } else if (name === 'launch') {
    const r = report(
      name,
      await runLaunchBench({
        sessions: Number(process.env.BENCH_LAUNCH_SESSIONS ?? 3000),
        latencySeconds: dispatcherSeconds,
        concurrency: Number(process.env.BENCH_LAUNCH_CONCURRENCY ?? 32),
      }),
      printLaunchResults,
    );
    // Refused or failed launches beyond a small share: the figures measure something else (a limiter, a failure).
    for (const e of launchErrors(r)) process.stderr.write(`error: launch: ${e}\n`);
    if (launchErrors(r).length) process.exitCode = 1;
  } else if (name === 'console') {
    report(
      name,
      await runConsoleBench({
        samples: Number(process.env.BENCH_CONSOLE_SAMPLES ?? 10),
        sizes: (process.env.BENCH_CONSOLE_APPLICATIONS ?? '10,10000').split(',').map(Number),
      }),
      printConsoleResults,
    );
  } else if (name === 'latency') {
    const r = report(
      name,
      await runLatencyBench({
        samples: Number(process.env.BENCH_LATENCY_SAMPLES ?? 20),
        records: Number(process.env.BENCH_LATENCY_RECORDS ?? 300_000),
      }),
      printLatencyResults,
    );
    if (!latencyWithinBounds(r)) process.exitCode = 1;
  } else if (name === 'alerts') {
    report(
      name,
      await runAlertsBench({
        rows: Number(process.env.BENCH_ALERT_ROWS ?? 1_000_000),
        samples: Number(process.env.BENCH_DELIVERY_SAMPLES ?? 200),
      }),
      printAlertsResults,
    );
  } else if (name === 'throttle') {
    report(
      name,
      await runThrottleBench({
        waiting: Number(process.env.BENCH_THROTTLE_WAITING ?? 10_000),
        perSecond: Number(process.env.BENCH_THROTTLE_RATE ?? 1),
        seconds: Number(process.env.BENCH_THROTTLE_SECONDS ?? 20),
      }),
      printThrottleResults,
    );
  } else if (name === 'search' || name === 'stats' || name === 'retention') {
    report(
      name,
      await runDeliveriesBench(name, {
        records: Number(
          name === 'retention'
            ? (process.env.BENCH_RETENTION_RECORDS ?? 10_000_000)
            : (process.env.BENCH_SEARCH_RECORDS ?? 1_000_000),
        ),
        samples: Number(process.env.BENCH_DELIVERY_SAMPLES ?? 200),
      }),
      printDeliveriesResults,
    );
  } else {
    process.stderr.write(`unknown benchmark ${name}; known: ${known.join(', ')}\n`);
    process.exitCode = 2;
  }
}

/**
 * Issue 14's targets for the API rows: GET by id >= 80% of the baseline's req/s with p99 at most
 * 1.5x the baseline's; lists >= 70%; creates of applications >= 50% and of subscriptions >= 40%,
 * both with p99 under 100 ms.
 */
function apiTargets(results: Awaited<ReturnType<typeof runApiBench>>): string {
  return results
    .map((s) => {
      const ratio = s.stack.rps / s.baseline.rps;
      const pct = `${fmt(ratio * 100, 1)}%`;
      if (s.name.startsWith('POST')) {
        const min = s.name.includes('webhooks') ? 0.4 : 0.5;
        const met = ratio >= min && s.stack.p99 < 100;
        return `target ${s.name}: >= ${min * 100}% and p99 < 100 ms -> ${pct}, p99 ${fmt(s.stack.p99, 1)} ms: ${met ? 'met' : 'NOT met'}`;
      }
      if (s.name.includes(':id')) {
        const tail = s.stack.p99 / s.baseline.p99;
        const met = ratio >= 0.8 && tail <= 1.5;
        const line = `target ${s.name}: >= 80% and p99 <= 1.5x the baseline's -> ${pct}, p99 ${fmt(tail, 2)}x: ${met ? 'met' : 'NOT met'}`;
        if (!s.lean) return line;
        const lean = s.stack.rps / s.lean.rps;
        return `${line}\ntarget ${s.name}: >= 80% of the lean baseline -> ${fmt(lean * 100, 1)}%: ${lean >= 0.8 ? 'met' : 'NOT met'}`;
      }
      return `target ${s.name}: >= 70% -> ${pct}: ${ratio >= 0.7 ? 'met' : 'NOT met'}`;
    })
    .join('\n');
}

function fmt(n: number, d = 0) {
  return n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
}

process.stdout.write(`\n${out.join('\n\n')}\n`);
const dir = join(root, 'bench/results');
mkdirSync(dir, { recursive: true });
writeFileSync(
  join(dir, `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
  JSON.stringify({ compare, dispatcherSeconds, results }, null, 2),
);
