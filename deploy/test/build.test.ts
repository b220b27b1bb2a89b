// What the images run: `npm run build` (tsc -b tsconfig.build.json, incremental) emits JavaScript
// that plain node starts, with no tsx and without the @switchboard/source condition, so the
// workspace packages resolve to their dist/ as in an image. The migrations, the services (their
// .proto files loaded from proto/) and the operator's commands run from that output.
import { execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  freePort,
  newSecretsKey,
  queryDatabase,
  startNatsServer,
  waitFor,
  type NatsServer,
  type TestDatabase,
} from '../../test/support';
import { REPO_ROOT } from './lib/tools';

const run = promisify(execFile);

/** `node <script> ...args` from a service folder, as the image runs it; never throws on a non-zero exit. */
async function runCompiled(
  service: string,
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('node', [script, ...args], {
      cwd: join(REPO_ROOT, 'services', service),
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Starts `node dist/main.js` of a service and waits for its operations port to answer `path` with 200. */
async function startCompiled(
  service: string,
  env: Record<string, string>,
  opsPort: number,
  path: '/healthz' | '/readyz',
) {
  const child = spawn('node', ['dist/main.js'], {
    cwd: join(REPO_ROOT, 'services', service),
    env: { ...process.env, ...env, OPS_PORT: String(opsPort) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`${service} exited with ${child.exitCode}: ${stderr}`);
      return (await fetch(`http://127.0.0.1:${opsPort}${path}`).catch(() => undefined))?.status === 200;
    },
    { timeoutMs: 30_000, intervalMs: 100, what: `compiled ${service} ${path}` },
  );
  return {
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

describe('npm run build', () => {
  let db: TestDatabase;
  let nats: NatsServer;
  let env: Record<string, string>;

  beforeAll(async () => {
    [db, nats] = await Promise.all([
      createTestDatabase(),
      startNatsServer(),
      // The root script, as an operator runs it; incremental, so quick when dist/ is current.
      run('npm', ['run', '--silent', 'build'], { cwd: REPO_ROOT }),
    ]);
    env = {
      DATABASE_URL: db.url,
      NATS_URL: nats.url,
      SECRETS_KEY: newSecretsKey(),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      MIGRATE_ON_START: 'false',
    };
  }, 300_000);

  afterAll(async () => {
    await nats?.destroy();
    await db?.drop();
  });

  it('runs the migrations of each schema with node dist/migrate.js', async () => {
    for (const service of ['applications', 'webhooks']) {
      const result = await runCompiled(service, 'dist/migrate.js', [], env);
      expect(result.code, result.stderr).toBe(0);
    }
    const tables = await queryDatabase<{ table: string }>(
      db.url,
      `select table_schema || '.' || table_name as table from information_schema.tables where table_schema in ('applications', 'webhooks')`,
    );
    expect(tables.map((t) => t.table)).toEqual(
      expect.arrayContaining(['applications.accounts', 'applications.applications', 'webhooks.subscriptions']),
    );
  });

  it('runs the operator commands: an account created with the compiled account command is listed', async () => {
    const created = await runCompiled(
      'applications',
      'dist/account-cli.js',
      ['create', '--username', 'compiled-operator'],
      { ...env, SWITCHBOARD_PASSWORD: 'compiled-password-1' },
    );
    expect(created.code, created.stderr).toBe(0);
    const listed = await runCompiled('applications', 'dist/account-cli.js', ['list'], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('compiled-operator');
    const numbers = await runCompiled('applications', 'dist/numbers-cli.js', ['add', '+15550100001'], env);
    expect(numbers.code, numbers.stderr).toBe(0);
  });

  it('starts the compiled services: applications, webhooks and dispatcher ready on their database and NATS, the gateway serving the API behind them', async () => {
    const [appsGrpc, appsOps, whGrpc, whOps, dispOps, gwPort, gwOps] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
    ]);
    const grpc = { APPLICATIONS_GRPC_URL: `127.0.0.1:${appsGrpc}`, WEBHOOKS_GRPC_URL: `127.0.0.1:${whGrpc}` };
    const started: Array<{ stop(): Promise<number | null> }> = [];
    try {
      started.push(await startCompiled('applications', { ...env, GRPC_PORT: String(appsGrpc) }, appsOps, '/readyz'));
      started.push(await startCompiled('webhooks', { ...env, ...grpc, GRPC_PORT: String(whGrpc) }, whOps, '/readyz'));
      started.push(await startCompiled('dispatcher', { ...env, ...grpc }, dispOps, '/readyz'));
      started.push(await startCompiled('gateway', { ...env, ...grpc, PORT: String(gwPort) }, gwOps, '/readyz'));
      // A request through the gateway to the applications service over gRPC, answered from Postgres.
      const authorization = `Basic ${Buffer.from('compiled-operator:compiled-password-1').toString('base64')}`;
      const res = await fetch(`http://127.0.0.1:${gwPort}/v1/applications`, { headers: { authorization } });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual([]);
    } finally {
      // Drained in reverse order; each exits 0 on SIGTERM.
      const codes = [];
      for (const s of started.reverse()) codes.push(await s.stop());
      expect(codes).toEqual(started.map(() => 0));
    }
  });
});
