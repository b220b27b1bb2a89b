// The platform's Coalescer (dataloader with trace links and retries alone, decision 0019) against
// dataloader alone (no cache, at most 64 keys a batch, flushed on process.nextTick): CPU per load
// when a gRPC batch's handlers ask for their rows in one synchronous loop. The loadMany is the same
// trivial function for both, so the figure is the coalescing alone. Run: npx tsx --conditions=@switchboard/source bench/micro/coalescer.ts
import DataLoader from 'dataloader';
import { Coalescer } from '@switchboard/db';

const BATCH = Number(process.env.BENCH_COALESCER_BATCH ?? 8);
const ROUNDS = Number(process.env.BENCH_COALESCER_ROUNDS ?? 50_000);

const loadMany = async (keys: readonly number[]) => keys.map((k) => k * 2);

async function measure(name: string, load: (k: number) => Promise<number>): Promise<number> {
  const round = async () => {
    const all: Promise<number>[] = [];
    for (let i = 0; i < BATCH; i++) all.push(load(i));
    await Promise.all(all);
  };
  for (let r = 0; r < 5_000; r++) await round(); // warm-up
  const cpu = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (let r = 0; r < ROUNDS; r++) await round();
  const wallNs = Number(process.hrtime.bigint() - t0);
  const used = process.cpuUsage(cpu);
  const loads = ROUNDS * BATCH;
  const cpuUsPerLoad = (used.user + used.system) / loads;
  console.log(
    `${name.padEnd(10)} ${((loads / wallNs) * 1e9).toFixed(0).padStart(9)} loads/s  ${cpuUsPerLoad.toFixed(3)} us CPU a load`,
  );
  return cpuUsPerLoad;
}

const coalescer = new Coalescer<number, number>((keys) => loadMany(keys), { maxKeys: 64 });
const dataloader = new DataLoader<number, number>(loadMany, {
  cache: false,
  maxBatchSize: 64,
  batchScheduleFn: (cb) => process.nextTick(cb),
});

console.log(
  `Node ${process.version}, ${BATCH} loads a batch, ${ROUNDS} batches; load average ${(await import('node:os'))
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
for (let i = 0; i < 3; i++) {
  await measure('coalescer', (k) => coalescer.load(k));
  await measure('dataloader', (k) => dataloader.load(k));
}
