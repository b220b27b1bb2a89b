// npm run bench [-- api|webhooks|dispatcher|sessions|addresses|launch ...]: runs the benchmarks and prints each against its
// baseline, measured in the same run on the same machine. Never part of `npm test`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { printAddressResults, runAddressBench } from './addresses';
import { printApiResults, runApiBench } from './api';
import { printDispatcherResults, runDispatcherBench } from './dispatcher';
import { printLaunchResults, runLaunchBench } from './launch';
import { root } from './lib';
import { printSessionResults, runSessionBench } from './sessions';
import { printTracingResults, runTracingBench } from './tracing';
import { printWebhooksResults, runWebhooksBench } from './webhooks';

const dispatcherSeconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
// API comparisons: alternating rounds of each system (bench/lib compareScenarios).
const compare = { seconds: Number(process.env.BENCH_ROUND_SECONDS ?? 5), rounds: Number(process.env.BENCH_ROUNDS ?? 4), connections };
const wanted = process.argv.slice(2).filter((a) => a !== '--');
const all = ['api', 'webhooks', 'dispatcher', 'sessions', 'addresses', 'launch', 'tracing'];
const selected = wanted.length ? wanted : all;
const out: string[] = [];
const results: Record<string, unknown> = {};

for (const name of selected) {
  process.stderr.write(`running ${name}\n`);
  if (name === 'api') {
    const r = await runApiBench(compare);
    results.api = r;
    const byId = r[0]!;
    out.push(printApiResults('Applications API: full stack vs single Express process on Postgres', r, connections));
    const ratio = byId.stack.rps / byId.baseline.rps;
    out.push(
      `target GET by id: >= 50% of baseline req/s and p99 < 25 ms -> ${fmt(ratio * 100, 1)}% and ${fmt(byId.stack.p99, 1)} ms: ${ratio >= 0.5 && byId.stack.p99 < 25 ? 'met' : 'NOT met'}`,
    );
  } else if (name === 'webhooks') {
    const r = await runWebhooksBench(compare);
    results.webhooks = r;
    out.push(printWebhooksResults('Webhook subscriptions: full stack vs single Express process on Postgres', r, connections));
    // Issue 3: at least 50% of the baseline's requests/s on reads (the by-id read and the list).
    const reads = r.filter((s) => s.name.startsWith('GET '));
    const ratios = reads.map((s) => s.stack.rps / s.baseline.rps);
    out.push(
      `target reads: >= 50% of baseline req/s -> ${reads.map((s, i) => `${s.name} ${fmt(ratios[i]! * 100, 1)}%`).join(', ')}: ${ratios.every((x) => x >= 0.5) ? 'met' : 'NOT met'}`,
    );
  } else if (name === 'dispatcher') {
    const r = await runDispatcherBench({
      events: Number(process.env.BENCH_DISPATCHER_EVENTS ?? 10_000),
      latencySeconds: dispatcherSeconds,
      concurrency: Number(process.env.BENCH_DISPATCHER_CONCURRENCY ?? 64),
      hostConcurrency: Number(process.env.BENCH_DISPATCHER_HOST_CONCURRENCY ?? 16),
      hosts: Number(process.env.BENCH_DISPATCHER_HOSTS ?? 8),
    });
    results.dispatcher = r;
    out.push(printDispatcherResults(r));
  } else if (name === 'tracing') {
    // At the services' default sampling (the target's setting) and with every trace sampled;
    // BENCH_TRACING_SAMPLED=0.01,1 names the shares instead (`default` for the default).
    const shares = (process.env.BENCH_TRACING_SAMPLED ?? 'default,1').split(',').map((s) => (s.trim() === 'default' ? 'default' : Number(s)));
    const runs = [];
    for (const sampled of shares) {
      const r = await runTracingBench(compare, sampled);
      runs.push(r);
      out.push(printTracingResults(r, connections));
    }
    results.tracing = runs;
  } else if (name === 'sessions') {
    const r = await runSessionBench({ sessions: Number(process.env.BENCH_SESSIONS ?? 5000), latencySeconds: dispatcherSeconds });
    results.sessions = r;
    out.push(printSessionResults(r));
  } else if (name === 'addresses') {
    const r = await runAddressBench({ clients: connections, seconds: dispatcherSeconds, perExchange: Number(process.env.BENCH_ADDRESS_NUMBERS ?? 25_000) });
    results.addresses = r;
    out.push(printAddressResults(r));
  } else if (name === 'launch') {
    const r = await runLaunchBench({
      sessions: Number(process.env.BENCH_LAUNCH_SESSIONS ?? 3000),
      latencySeconds: dispatcherSeconds,
      concurrency: Number(process.env.BENCH_LAUNCH_CONCURRENCY ?? 32),
    });
    results.launch = r;
    out.push(printLaunchResults(r));
  } else {
    process.stderr.write(`unknown benchmark ${name}; known: ${all.join(', ')}\n`);
    process.exitCode = 2;
  }
}

function fmt(n: number, d = 0) {
  return n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
}

process.stdout.write(`\n${out.join('\n\n')}\n`);
const dir = join(root, 'bench/results');
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`), JSON.stringify({ compare, dispatcherSeconds, results }, null, 2));
