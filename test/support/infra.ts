// Real infrastructure for development: a fresh Postgres database on the shared server, a Postgres
// cluster and a NATS JetStream server of our own (on free ports for tests, benchmarks and the proof;
// on the configured ports for `npm start`). Nothing here loads a service, so libraries under
// packages/ can use it in their own tests.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  chownSync,
  mkdirSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export const ADMIN_DATABASE_URL = process.env.TEST_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A fresh SECRETS_KEY (32 random bytes, base64) for the services a test starts. */
export function newSecretsKey(): string {
  return randomBytes(32).toString('base64');
}

export function randomName(prefix: string): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

/**
 * Ports handed out by freePort come from below the kernel's ephemeral range (32768-60999 here), so
 * the local port of an outgoing connection cannot take one between freePort and the server's own
 * bind. Each process draws from its own window of that range (by process id), so two test files
 * running at once rarely share ports to pick from, and a port handed out once is not handed out
 * again. Across processes a port is also claimed with a file in PORT_CLAIMS (created exclusively,
 * holding the claimer's process id): another process skips it while the claimer lives, so two test
 * runs whose windows meet never start servers on one port (at most one small file per port of the
 * range; a claim whose process is gone is taken over).
 */
const PORT_WINDOW = 500;
const PORT_WINDOWS = 24;
const PORT_BASE = 20_000 + (process.pid % PORT_WINDOWS) * PORT_WINDOW;
const handedOut = new Set<number>();
const PORT_CLAIMS = join(tmpdir(), 'switchboard-test-ports');

/** Claims `port` for this process; false when a living process holds it. */
function claimPort(port: number): boolean {
  mkdirSync(PORT_CLAIMS, { recursive: true });
  const file = join(PORT_CLAIMS, String(port));
  for (let tries = 0; tries < 2; tries++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return true;
    } catch {
      const holder = Number(readFileSync(file, 'utf8').trim() || 0);
      if (holder === process.pid) return true;
      // No pid yet: its claimer is writing it.
      if (!(holder > 0) || alive(holder)) return false;
      rmSync(file, { force: true }); // its claimer is gone
    }
  }
  return false;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

export async function freePort(): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const port = PORT_BASE + Math.floor(Math.random() * PORT_WINDOW);
    if (handedOut.has(port)) continue;
    if (claimPort(port) && (await canListen(port))) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port between ${PORT_BASE} and ${PORT_BASE + PORT_WINDOW}`);
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function waitFor<T>(
  fn: () => Promise<T | undefined | false> | T | undefined | false,
  opts: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
  let lastErr: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined && v !== false) return v as T;
    } catch (err) {
      lastErr = err;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${opts.what ?? 'condition'}${lastErr ? `: ${String(lastErr)}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 50));
  }
}

/** Sum of the samples of a metric in Prometheus text whose labels include `labels` (0 when absent). */
export function metricSum(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{([^}]*)\})?\s+(\S+)/.exec(line);
    if (!m || m[1] !== name) continue;
    const got: Record<string, string> = {};
    for (const part of (m[2] ?? '').match(/\w+="[^"]*"/g) ?? []) {
      const eq = part.indexOf('=');
      got[part.slice(0, eq)] = part.slice(eq + 2, -1);
    }
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) sum += Number(m[3]);
  }
  return sum;
}

/** Runs one statement on its own connection to `url` (setup and checks in tests); returns the rows. */
export async function queryDatabase<T = Record<string, unknown>>(
  url: string,
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text, params)).rows as T[];
  } finally {
    await c.end();
  }
}

/** The whole database at `url` as SQL text, data only (pg_dump): what a stolen backup would hold. */
export function dumpDatabase(url: string): string {
  return execFileSync('pg_dump', ['--data-only', '--no-owner', url], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** Creates an empty database with a random name on the shared server; drop() removes it. */
export async function createTestDatabase(adminUrl = ADMIN_DATABASE_URL): Promise<TestDatabase> {
  const name = randomName('sb_test');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

function postgresBinDir(): string {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base))
    throw new Error('Postgres binaries not found under /usr/lib/postgresql (apt-get install -y postgresql)');
  const versions = readdirSync(base).sort((a, b) => Number(a) - Number(b));
  const v = versions[versions.length - 1];
  if (!v) throw new Error('no Postgres version under /usr/lib/postgresql');
  return join(base, v, 'bin');
}

export interface PostgresClusterOptions {
  /** The cluster's data directory (initialised by init()). */
  data: string;
  port: number;
  /** The server's log file. */
  log: string;
  /** Where the server puts its Unix socket (owned by the postgres user when run as root). */
  socketDir: string;
  /** Extra server settings, e.g. ['fsync=off']. */
  settings?: string[];
}

export interface PostgresCluster {
  initialised(): boolean;
  /** initdb: trust authentication, superuser postgres. */
  init(): void;
  start(): void;
  stop(mode?: 'fast' | 'immediate'): void;
}

/**
 * A Postgres cluster on 127.0.0.1 driven by initdb and pg_ctl from Debian's packages (run as the
 * postgres user when this process is root: initdb refuses root).
 */
export function postgresCluster(o: PostgresClusterOptions): PostgresCluster {
  const bin = postgresBinDir();
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) => {
    const full = join(bin, cmd);
    if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', full, ...args], { stdio: 'pipe' });
    else execFileSync(full, args, { stdio: 'pipe' });
  };
  const settings = ['listen_addresses=127.0.0.1', ...(o.settings ?? [])].map((x) => ` -c ${x}`).join('');
  return {
    initialised: () => existsSync(join(o.data, 'PG_VERSION')),
    init() {
      mkdirSync(o.data, { recursive: true });
      if (asRoot) {
        const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
        const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
        for (const d of new Set([o.socketDir, o.data])) chownSync(d, uid, gid);
      }
      run('initdb', ['-D', o.data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    },
    start() {
      run('pg_ctl', ['-D', o.data, '-l', o.log, '-w', '-o', `-p ${o.port} -k ${o.socketDir}${settings}`, 'start']);
    },
    stop(mode = 'fast') {
      run('pg_ctl', ['-D', o.data, '-m', mode, '-w', 'stop']);
    },
  };
}

export interface PrivatePostgres {
  url: string;
  port: number;
  start(): Promise<void>;
  stop(): Promise<void>;
  destroy(): Promise<void>;
}

/** A throwaway Postgres cluster on a free port, for tests that stop the database. */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'sb-pg-'));
  const port = await freePort();
  const cluster = postgresCluster({
    data: join(dir, 'data'),
    port,
    log: join(dir, 'log'),
    socketDir: dir,
    settings: ['fsync=off', 'max_connections=200'],
  });
  cluster.init();
  const start = async () => cluster.start();
  const stop = async () => cluster.stop('immediate');
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop,
    async destroy() {
      try {
        await stop();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface NatsServer {
  url: string;
  port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
  restart(): Promise<void>;
  destroy(): Promise<void>;
}

export function natsServerBinary(): string {
  for (const p of ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'])
    if (existsSync(p)) return p;
  throw new Error('nats-server not found (apt-get install -y nats-server)');
}

export interface NatsServerOptions {
  port: number;
  monitorPort: number;
  /** JetStream's store. */
  dir: string;
  /** More arguments (a config file, cluster routes, a server name). */
  extra?: string[];
  /** Called with the process as soon as it is spawned (before it is ready), e.g. to track it. */
  spawned?: (child: ChildProcess) => void;
  timeoutMs?: number;
}

/** The arguments of nats-server with JetStream on 127.0.0.1 (`o.spawned` and `o.timeoutMs` aside). */
export function natsServerArgs(o: NatsServerOptions): string[] {
  return [
    '-js',
    '-a',
    '127.0.0.1',
    '-p',
    String(o.port),
    '-m',
    String(o.monitorPort),
    '-sd',
    o.dir,
    ...(o.extra ?? []),
  ];
}

/** Whether the nats-server monitored on `monitorPort` says JetStream is healthy. */
export async function natsHealthy(monitorPort: number): Promise<boolean> {
  return (
    await fetch(`http://127.0.0.1:${monitorPort}/healthz?js-enabled-only=true`, { signal: AbortSignal.timeout(1000) })
  ).ok;
}

/**
 * Runs nats-server with JetStream on 127.0.0.1; resolves with the process once its monitoring
 * endpoint says JetStream is healthy (a process that exited is reported with the end of its stderr).
 */
export async function runNatsServer(o: NatsServerOptions): Promise<ChildProcess> {
  const child = spawn(natsServerBinary(), natsServerArgs(o), { stdio: ['ignore', 'ignore', 'pipe'] });
  o.spawned?.(child);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`nats-server exited with ${child.exitCode}: ${stderr}`);
      return natsHealthy(o.monitorPort);
    },
    { timeoutMs: o.timeoutMs ?? 10_000, what: `nats-server on port ${o.port}` },
  );
  return child;
}

/**
 * A private NATS server with JetStream on free ports, data in a temp dir; restart() keeps the data.
 * `maxPayload`: the largest message the server accepts, in bytes (default 1 MiB).
 */
export async function startNatsServer(opts: { maxPayload?: number } = {}): Promise<NatsServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sb-nats-'));
  const port = await freePort();
  const monitor = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    // nats-server 2.9 has no command-line flag for it: a one-line config file.
    const limits = opts.maxPayload ? ['-c', join(dir, 'limits.conf')] : [];
    if (opts.maxPayload) writeFileSync(join(dir, 'limits.conf'), `max_payload: ${opts.maxPayload}\n`);
    child = await runNatsServer({ port, monitorPort: monitor, dir, extra: limits });
  };
  const stop = async () => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once('exit', () => resolve());
      c.kill('SIGTERM');
    });
  };
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    start,
    stop,
    async restart() {
      await stop();
      await start();
    },
    async destroy() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
