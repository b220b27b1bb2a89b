// The launcher's promises to everyone who starts processes with it: a process that ignores SIGTERM
// is killed once its deadline passes, a process that dies while starting is reported at once with
// its output, and a service started again after kill -9 is ready on the same ports.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeServicePorts, launchProcess, portEnv, serviceProcess } from './launcher';
import { startServices, type Services } from './services';

/** A Node program given as source text. */
const program = (source: string) => ({ command: process.execPath, args: ['-e', source] });

describe('launchProcess', () => {
  it('when a process ignores SIGTERM, then stop() kills it with SIGKILL after its grace period', async () => {
    const p = launchProcess({
      name: 'stubborn',
      ...program(
        "process.on('SIGTERM', () => console.log('ignored')); console.log('up'); setInterval(() => {}, 1000);",
      ),
      ready: async () => p.logs().includes('up'),
      graceMs: 300,
    });
    await p.start();
    const pid = p.pid();
    expect(pid).toBeGreaterThan(0);
    await p.stop();
    expect(p.alive()).toBe(false);
    expect(p.pid()).toBeUndefined();
    expect(p.child?.signalCode).toBe('SIGKILL');
    expect(p.logs()).toContain('ignored');
  });

  it('when a process exits before it is ready, then start() fails at once with its output, not at its timeout', async () => {
    const p = launchProcess({
      name: 'broken',
      ...program("console.error('DATABASE_URL is not a URL'); process.exit(3);"),
      ready: async () => false,
      // The test's own timeout (30 s) ends first if start() waits for this one.
      readyTimeoutMs: 600_000,
    });
    await expect(p.start()).rejects.toThrow(/broken exited with 3 before it was ready\n.*DATABASE_URL is not a URL/s);
    expect(p.alive()).toBe(false);
  });
});

describe('serviceProcess', () => {
  // A database and a NATS server, and no service: the test starts its own.
  let stack: Services<{ applications: false }>;
  beforeAll(async () => {
    stack = await startServices({ applications: false });
  });
  afterAll(() => stack?.stop());

  it('when a service is killed with kill -9 and started again, then it is ready on the same ports and serves its metrics', async () => {
    const ports = await freeServicePorts('applications');
    const p = serviceProcess('applications', {
      env: { ...stack.env, ...portEnv('applications', ports) },
    });
    try {
      await p.start();
      expect(p.ports).toEqual(ports);
      const first = p.pid();
      expect(await p.metrics()).toMatch(/^applications_process_cpu_seconds_total/m);
      await p.kill9();
      expect(p.alive()).toBe(false);
      await expect(fetch(`http://127.0.0.1:${ports.ops}/readyz`)).rejects.toThrow();
      await p.start();
      expect(p.pid()).not.toBe(first);
      expect((await fetch(`http://127.0.0.1:${ports.ops}/readyz`)).status).toBe(200);
      await p.stop();
      // SIGTERM: it drained and ended on its own, well before SIGKILL.
      expect(p.child?.exitCode).toBe(0);
    } finally {
      await p.kill9();
    }
  }, 120_000);
});
