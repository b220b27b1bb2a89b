// `npm start`: runs the whole stack in the foreground. Postgres and NATS are used where they answer
// at their configured addresses; otherwise private instances are started with data under .data/.
// Ctrl-C (or SIGTERM) stops every process.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, chownSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
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

async function waitUntil(check: () => Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} did not come up within ${ms / 1000} s`);
}

const cleanups: (() => void)[] = [];

async function ensurePostgres(): Promise<void> {
  const url = new URL(env.DATABASE_URL!);
  const host = url.hostname || '127.0.0.1';
  const port = Number(url.port || 5432);
  if (await answers(host, port)) return say(`Postgres answers at ${host}:${port}`);
  if (!['127.0.0.1', 'localhost'].includes(host)) throw new Error(`Postgres at ${host}:${port} does not answer (DATABASE_URL)`);
  const base = '/usr/lib/postgresql';
  const version = existsSync(base) ? readdirSync(base).sort((a, b) => Number(a) - Number(b)).pop() : undefined;
  if (!version) {
    throw new Error('Postgres does not answer at ' + `${host}:${port} and is not installed. Install it with:\n  sudo apt-get install -y postgresql\nor point DATABASE_URL at a running server.`);
  }
  const bin = join(base, version, 'bin');
  const dir = join(dataDir, 'postgres');
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) =>
    asRoot ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args], { stdio: 'pipe' }) : execFileSync(join(bin, cmd), args, { stdio: 'pipe' });
  mkdirSync(dataDir, { recursive: true });
  if (!existsSync(join(dir, 'PG_VERSION'))) {
    say(`initialising a private Postgres cluster in ${dir}`);
    mkdirSync(dir, { recursive: true });
    if (asRoot) {
      const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
      const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
      chownSync(dataDir, uid, gid);
      chownSync(dir, uid, gid);
    }
    run('initdb', ['-D', dir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  }
  say(`starting a private Postgres on port ${port}`);
  run('pg_ctl', ['-D', dir, '-l', join(dir, 'server.log'), '-w', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, 'start']);
  cleanups.push(() => {
    try {
      run('pg_ctl', ['-D', dir, '-m', 'fast', '-w', 'stop']);
    } catch {
      // already stopped
    }
  });
  await waitUntil(() => answers(host, port), 'Postgres');
}

async function ensureNats(): Promise<void> {
  const first = env.NATS_URL!.split(',')[0]!;
  const url = new URL(first);
  const host = url.hostname || '127.0.0.1';
  const port = Number(url.port || 4222);
  if (await answers(host, port)) return say(`NATS answers at ${host}:${port}`);
  if (!['127.0.0.1', 'localhost'].includes(host)) throw new Error(`NATS at ${host}:${port} does not answer (NATS_URL)`);
  const bin = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].find((p) => existsSync(p));
  if (!bin) {
    throw new Error(`NATS does not answer at ${host}:${port} and nats-server is not installed. Install it with:\n  sudo apt-get install -y nats-server\nor point NATS_URL at a running server.`);
  }
  const dir = join(dataDir, 'nats');
  mkdirSync(dir, { recursive: true });
  say(`starting a private NATS JetStream on port ${port}`);
  const child = spawn(bin, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', dir], { stdio: 'ignore' });
  cleanups.push(() => child.kill('SIGTERM'));
  await waitUntil(() => answers(host, port), 'NATS');
}

const SERVICES = ['applications', 'webhooks', 'dispatcher', 'gateway'];
const children = new Map<string, ChildProcess>();
let stopping = false;

function stopAll(code: number): void {
  if (stopping) return;
  stopping = true;
  say('stopping');
  for (const c of children.values()) c.kill('SIGTERM');
  const finish = () => {
    for (const f of cleanups.reverse()) f();
    process.exit(code);
  };
  const timer = setTimeout(() => {
    for (const c of children.values()) c.kill('SIGKILL');
    finish();
  }, 30_000);
  Promise.all([...children.values()].map((c) => (c.exitCode !== null ? Promise.resolve() : new Promise((r) => c.once('exit', r))))).then(() => {
    clearTimeout(timer);
    finish();
  });
}

process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));
// npm does not pass SIGTERM on to its script: when our parent goes away, stop too.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) stopAll(0);
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

for (const name of SERVICES) {
  const dir = join(root, 'services', name);
  if (!existsSync(join(dir, 'src/main.ts'))) continue;
  const serviceEnv = name === 'gateway' ? { ...env, OPS_PORT: GATEWAY_OPS_PORT } : env;
  const child = spawn(process.execPath, ['--conditions=@switchboard/source', '--import', 'tsx', 'src/main.ts'], { cwd: dir, env: serviceEnv, stdio: ['ignore', 'inherit', 'inherit'] });
  children.set(name, child);
  child.on('exit', (code, signal) => {
    if (!stopping) {
      say(`${name} exited (${signal ?? code}); stopping the stack`);
      stopAll(1);
    }
  });
}

const base = env.PUBLIC_BASE_URL;
waitUntil(async () => (await fetch(`http://127.0.0.1:${GATEWAY_OPS_PORT}/readyz`).catch(() => undefined))?.ok ?? false, 'the stack', 60_000)
  .then(() =>
    say(
      `Switchboard is ready at ${base}\n  create an account:  npm run account -- create --username me   (asks for the password; type choose-a-password)\n  then:              curl -u me:choose-a-password ${base}/v1/applications\n  gateway readiness and metrics: http://127.0.0.1:${GATEWAY_OPS_PORT}/readyz, /metrics (not on the API port)`,
    ),
  )
  .catch((err: Error) => say(`${err.message}; see the logs above`));
