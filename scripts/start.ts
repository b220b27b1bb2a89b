// `npm start`: runs the whole stack in the foreground. Postgres and NATS are used where they answer
// at their configured addresses; otherwise private instances are started with data under .data/.
// Ctrl-C (or SIGTERM) stops every process.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { join } from 'node:path';
import {
  freePort,
  natsServerBinary,
  postgresCluster,
  runNatsServer,
  waitFor,
  type PostgresCluster,
} from '../test/support/infra';
import { consoleBuildNeeded, ensureConsoleBuilt } from '../test/support/console-build';
import { ROOT as root, SERVICE_NAMES, serviceProcess, type ServiceProcess } from '../test/support/launcher';
const dataDir = join(root, '.data');
const env = { ...process.env };
env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/switchboard';
env.NATS_URL ??= 'nats://127.0.0.1:4222';
env.PORT ??= '8080';
// The gateway's default, given to every service: the webhooks service builds the hrefs of webhookDisabled notices from it.
env.PUBLIC_BASE_URL ??= `http://localhost:${env.PORT}`;
// The gateway's operations port (/readyz, /metrics); the other services keep their own defaults.
const GATEWAY_OPS_PORT = '8084';

const say = (msg: string): void => void process.stderr.write(`[start] ${msg}\n`);

function answers(host: string, port: number, ms = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host, port });
    const t = setTimeout(() => (s.destroy(), resolve(false)), ms);
    s.once('connect', () => (clearTimeout(t), s.end(), resolve(true)));
    s.once('error', () => (clearTimeout(t), resolve(false)));
  });
}

const cleanups: (() => void)[] = [];

async function ensurePostgres(): Promise<void> {
  const url = new URL(env.DATABASE_URL!);
  const host = url.hostname || '127.0.0.1';
  const port = Number(url.port || 5432);
  if (await answers(host, port)) return say(`Postgres answers at ${host}:${port}`);
  if (!['127.0.0.1', 'localhost'].includes(host))
    throw new Error(`Postgres at ${host}:${port} does not answer (DATABASE_URL)`);
  const dir = join(dataDir, 'postgres');
  let cluster: PostgresCluster;
  try {
    cluster = postgresCluster({ data: dir, port, log: join(dir, 'server.log'), socketDir: dir });
  } catch {
    throw new Error(
      `Postgres does not answer at ${host}:${port} and is not installed. Install it with:\n  sudo apt-get install -y postgresql\nor point DATABASE_URL at a running server.`,
    );
  }
  if (!cluster.initialised()) {
    say(`initialising a private Postgres cluster in ${dir}`);
    cluster.init();
  }
  say(`starting a private Postgres on port ${port}`);
  cluster.start();
  cleanups.push(() => {
    try {
      cluster.stop('fast');
    } catch {
      // already stopped
    }
  });
  await waitFor(() => answers(host, port), { what: 'Postgres', timeoutMs: 20_000, intervalMs: 200 });
}

async function ensureNats(): Promise<void> {
  const first = env.NATS_URL!.split(',')[0]!;
  const url = new URL(first);
  const host = url.hostname || '127.0.0.1';
  const port = Number(url.port || 4222);
  if (await answers(host, port)) return say(`NATS answers at ${host}:${port}`);
  if (!['127.0.0.1', 'localhost'].includes(host)) throw new Error(`NATS at ${host}:${port} does not answer (NATS_URL)`);
  try {
    natsServerBinary();
  } catch {
    throw new Error(
      `NATS does not answer at ${host}:${port} and nats-server is not installed. Install it with:\n  sudo apt-get install -y nats-server\nor point NATS_URL at a running server.`,
    );
  }
  const dir = join(dataDir, 'nats');
  mkdirSync(dir, { recursive: true });
  say(`starting a private NATS JetStream on port ${port}`);
  await runNatsServer({
    port,
    monitorPort: await freePort(),
    dir,
    spawned: (c) => void cleanups.push(() => c.kill('SIGTERM')),
    timeoutMs: 20_000,
  });
}

const children: ServiceProcess[] = [];
let stopping = false;

async function stopAll(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  say('stopping');
  // SIGTERM to every service; SIGKILL to any still running 30 s later.
  await Promise.all(children.map((c) => c.stop()));
  for (const f of cleanups.reverse()) f();
  process.exit(code);
}

process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));
// npm does not pass SIGTERM on to its script: when our parent goes away, stop too.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) void stopAll(0);
}, 500).unref();

try {
  await ensurePostgres();
  await ensureNats();
} catch (err) {
  say((err as Error).message);
  for (const f of cleanups.reverse()) f();
  process.exit(1);
}

// Stored signing secrets are sealed with SECRETS_KEY: the same key must come back on every start,
// so it is kept in .data/ (git-ignored) unless SECRETS_KEY is given.
if (!env.SECRETS_KEY) {
  const file = join(dataDir, 'secrets-key');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
  }
  env.SECRETS_KEY = readFileSync(file, 'utf8').trim();
}

// The console the gateway serves at /console/: built when console/dist is missing or older than its
// sources (npm run build builds it again too).
if (consoleBuildNeeded()) {
  say(consoleBuildNeeded() === 'stale' ? 'building the console again: its sources changed' : 'building the console');
  try {
    ensureConsoleBuilt();
  } catch {
    say('the console did not build; the API runs without it (see the error above)');
  }
}

for (const name of SERVICE_NAMES) {
  // The gateway serves its operations port where the ready message says; the others keep their defaults.
  const serviceEnv = name === 'gateway' ? { ...env, OPS_PORT: GATEWAY_OPS_PORT } : env;
  children.push(
    serviceProcess(name, {
      env: serviceEnv as Record<string, string>,
      output: 'inherit',
      graceMs: 30_000,
      // Only the gateway is waited for: it is ready when the services it calls are.
      readyPath: name === 'gateway' ? '/readyz' : false,
      onExit: (code, signal) => {
        if (stopping) return;
        say(`${name} exited (${signal ?? code}); stopping the stack`);
        void stopAll(1);
      },
    }),
  );
}

const base = env.PUBLIC_BASE_URL;
Promise.all(children.map((c) => c.start()))
  .then(() =>
    say(
      `Switchboard is ready at ${base}\n  the console:        ${base}/console/ (sign in with an account's username and password)\n  create an account:  npm run account -- create --username me   (asks for the password; type choose-a-password)\n  then:              curl -u me:choose-a-password ${base}/v1/applications\n  gateway readiness and metrics: http://127.0.0.1:${GATEWAY_OPS_PORT}/readyz, /metrics (not on the API port)`,
    ),
  )
  .catch((err: Error) => {
    if (!stopping) say(`${err.message}; see the logs above`);
  });
