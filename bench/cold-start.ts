// Cold start and memory of each service started the way an image starts it, compiled
// (node dist/main.js, npm run build's output) against the TypeScript sources under tsx
// (node --import tsx src/main.ts): the time from spawn to /readyz answering 200, the CPU time the
// process used until then (user + system, all its threads), and its resident set (VmRSS) once
// ready. On a busy machine the wall time varies with the load; the CPU time much less. tsx starts with an empty cache in a fresh temporary
// directory, as in a new pod (an emptyDir at /tmp), and again with the cache of the previous run.
// Runs the modes in turn for each run, so a change of the machine's load falls on all of them.
//   npm run build && npx tsx --conditions=@switchboard/source bench/cold-start.ts [runs=5]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createTestDatabase, freePort, newSecretsKey, startNatsServer, waitFor } from '../test/support';

const ROOT = new URL('..', import.meta.url).pathname;
const RUNS = Number(process.argv[2] ?? 5);
const SERVICES = ['applications', 'webhooks', 'dispatcher', 'gateway'] as const;
type Service = (typeof SERVICES)[number];
const MODES = {
  compiled: { argv: ['dist/main.js'], freshTmp: false },
  'tsx, empty cache': { argv: ['--conditions=@switchboard/source', '--import', 'tsx', 'src/main.ts'], freshTmp: true },
  'tsx, warm cache': { argv: ['--conditions=@switchboard/source', '--import', 'tsx', 'src/main.ts'], freshTmp: false },
} as const;
type Mode = keyof typeof MODES;

interface Sample {
  readyMs: number;
  cpuMs: number;
  rssMiB: number;
}

const rssMiB = (pid: number) =>
  Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
// utime and stime, fields 14 and 15 of /proc/<pid>/stat, in clock ticks (100 per second on Linux).
const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

async function start(
  service: Service,
  argv: readonly string[],
  env: Record<string, string>,
  tmp: string,
): Promise<Sample & { stop(): Promise<void> }> {
  const [grpcPort, opsPort, port] = await Promise.all([freePort(), freePort(), freePort()]);
  const began = performance.now();
  const child = spawn(process.execPath, argv, {
    cwd: join(ROOT, 'services', service),
    env: {
      ...process.env,
      ...env,
      TMPDIR: tmp,
      GRPC_PORT: String(grpcPort),
      OPS_PORT: String(opsPort),
      PORT: String(port),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`${service} exited with ${child.exitCode}`);
      return (await fetch(`http://127.0.0.1:${opsPort}/readyz`).catch(() => undefined))?.status === 200;
    },
    { timeoutMs: 60_000, intervalMs: 10, what: `${service} ready` },
  );
  const readyMs = performance.now() - began;
  const sample = { readyMs, cpuMs: cpuMs(child.pid!), rssMiB: rssMiB(child.pid!) };
  return {
    ...sample,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const [db, nats] = await Promise.all([createTestDatabase(), startNatsServer()]);
const scratch = mkdtempSync(join(tmpdir(), 'sb-cold-start-'));
const running: Array<{ stop(): Promise<void> }> = [];
try {
  const base = {
    DATABASE_URL: db.url,
    NATS_URL: nats.url,
    SECRETS_KEY: newSecretsKey(),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
  };
  // The dependencies the others' readiness checks reach: applications (migrating its schema) and
  // webhooks (migrating its own), compiled, for the whole run.
  const deps = { applications: '', webhooks: '' };
  for (const service of ['applications', 'webhooks'] as const) {
    const grpcPort = await freePort();
    const opsPort = await freePort();
    const child = spawn(process.execPath, ['dist/main.js'], {
      cwd: join(ROOT, 'services', service),
      env: {
        ...process.env,
        ...base,
        APPLICATIONS_GRPC_URL: deps.applications,
        GRPC_PORT: String(grpcPort),
        OPS_PORT: String(opsPort),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    running.push({
      async stop() {
        child.kill('SIGTERM');
        await exited;
      },
    });
    await waitFor(
      async () => (await fetch(`http://127.0.0.1:${opsPort}/readyz`).catch(() => undefined))?.status === 200,
      { timeoutMs: 60_000, what: `${service} dependency` },
    );
    deps[service] = `127.0.0.1:${grpcPort}`;
  }
  const env = {
    ...base,
    MIGRATE_ON_START: 'false',
    APPLICATIONS_GRPC_URL: deps.applications,
    WEBHOOKS_GRPC_URL: deps.webhooks,
  };
  const warmTmp = join(scratch, 'warm');
  const samples = new Map<string, Sample[]>();
  for (const service of SERVICES) {
    // One start of each mode first, unmeasured: the page cache holds the files and tsx's warm
    // cache is filled.
    for (let run = -1; run < RUNS; run++) {
      for (const [mode, how] of Object.entries(MODES) as Array<[Mode, (typeof MODES)[Mode]]>) {
        const tmp = how.freshTmp ? mkdtempSync(join(scratch, 'fresh-')) : warmTmp;
        const s = await start(service, how.argv, env, tmp);
        await s.stop();
        if (how.freshTmp) rmSync(tmp, { recursive: true, force: true });
        if (run < 0) continue;
        const key = `${service}\t${mode}`;
        samples.set(key, [...(samples.get(key) ?? []), s]);
        process.stderr.write(
          `${service} ${mode} #${run + 1}: ready ${s.readyMs.toFixed(0)} ms, CPU ${s.cpuMs} ms, RSS ${s.rssMiB.toFixed(1)} MiB\n`,
        );
      }
    }
  }
  console.log(`Node ${process.version}, ${RUNS} runs each, median (min-max)`);
  console.log('| service | start | ready (ms) | CPU until ready (ms) | RSS when ready (MiB) |');
  console.log('|---|---|---|---|---|');
  const fmt = (xs: number[], digits: number) =>
    `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)})`;
  for (const [key, xs] of samples) {
    const [service, mode] = key.split('\t');
    console.log(
      `| ${service} | ${mode} | ${fmt(
        xs.map((x) => x.readyMs),
        0,
      )} | ${fmt(
        xs.map((x) => x.cpuMs),
        0,
      )} | ${fmt(
        xs.map((x) => x.rssMiB),
        1,
      )} |`,
    );
  }
} finally {
  for (const r of running.reverse()) await r.stop();
  await nats.destroy();
  await db.drop();
  rmSync(scratch, { recursive: true, force: true });
}
