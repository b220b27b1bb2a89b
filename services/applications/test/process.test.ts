import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthClient } from '@switchboard/proto';
import {
  createTestDatabase,
  freePort,
  newSecretsKey,
  startNatsServer,
  waitFor,
  type NatsServer,
  type TestDatabase,
} from '../../../test/support';

const serviceDir = fileURLToPath(new URL('..', import.meta.url));
let db: TestDatabase;
let nats: NatsServer;

beforeAll(async () => {
  [db, nats] = await Promise.all([createTestDatabase(), startNatsServer()]);
});
afterAll(async () => {
  await nats?.destroy();
  await db?.drop();
});

function start(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--conditions=@switchboard/source', '--import', 'tsx', 'src/main.ts'], {
    cwd: serviceDir,
    env: { ...process.env, SECRETS_KEY: newSecretsKey(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (d: Buffer) => (out.stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out.stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, out, exited };
}

describe('the applications process', () => {
  it('when a variable has a bad value, then it stops at start with a message naming the variable', async () => {
    const p = start({ GRPC_PORT: 'not-a-port', DATABASE_URL: db.url, NATS_URL: nats.url });
    expect(await p.exited).toBe(1);
    const line = JSON.parse(p.out.stderr.trim().split('\n').pop()!) as { level: string; msg: string };
    expect(line.level).toBe('fatal');
    expect(line.msg).toMatch(/GRPC_PORT/);

    const badUrl = start({ DATABASE_URL: 'mysql://nope', NATS_URL: nats.url });
    expect(await badUrl.exited).toBe(1);
    expect(badUrl.out.stderr).toMatch(/DATABASE_URL/);
  });

  it('when started, then it serves grpc.health.v1 and JSON logs; on SIGTERM it drains and exits 0', async () => {
    const [grpcPort, opsPort] = await Promise.all([freePort(), freePort()]);
    const p = start({
      GRPC_PORT: String(grpcPort),
      OPS_PORT: String(opsPort),
      DATABASE_URL: db.url,
      NATS_URL: nats.url,
      HOST: '127.0.0.1',
    });
    try {
      await waitFor(async () => (await fetch(`http://127.0.0.1:${opsPort}/readyz`)).ok, {
        timeoutMs: 30_000,
        what: 'readiness',
      });
      const health = healthClient(`127.0.0.1:${grpcPort}`, 'applications');
      expect(await health.check({ service: '' })).toEqual({ status: 'SERVING' });
      health.close();
      p.child.kill('SIGTERM');
      const started = Date.now();
      expect(await p.exited).toBe(0);
      expect(Date.now() - started).toBeLessThan(10_000);
      const lines = p.out.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { service: string; msg: string });
      expect(lines.every((l) => l.service === 'applications')).toBe(true);
      expect(lines.map((l) => l.msg)).toEqual(
        expect.arrayContaining(['applications service started', 'draining', 'stopped']),
      );
    } finally {
      p.child.kill('SIGKILL');
    }
  }, 60_000);
});
