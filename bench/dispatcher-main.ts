// Runs the dispatcher benchmark alone: npx tsx bench/dispatcher-main.ts
// (BENCH_DISPATCHER_EVENTS, BENCH_SECONDS for the latency phase, BENCH_DISPATCHER_CONCURRENCY).
import { printDispatcherResults, runDispatcherBench } from './dispatcher';

const result = await runDispatcherBench({
  events: Number(process.env.BENCH_DISPATCHER_EVENTS ?? 10_000),
  latencySeconds: Number(process.env.BENCH_SECONDS ?? 10),
  concurrency: Number(process.env.BENCH_DISPATCHER_CONCURRENCY ?? 64),
});
process.stdout.write(`\n${printDispatcherResults(result)}\n`);
