import { spawn } from 'node:child_process';
import { createServer as createNetServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freePort, waitFor } from '../../../test/support';

const serviceDir = fileURLToPath(new URL('..', import.meta.url));

describe('the gateway process', () => {
  it('when PUBLIC_BASE_URL is not a URL, then it refuses to start and names the variable', async () => {
    const child = spawn(process.execPath, ['--conditions=@switchboard/source', '--import', 'tsx', 'src/main.ts'], {
      cwd: serviceDir,
      env: { ...process.env, PORT: '0', PUBLIC_BASE_URL: 'ftp:/nope' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toMatch(/PUBLIC_BASE_URL/);
  });

  it.each([
    ['SIGTERM arrives', ['SIGTERM']],
    // Ctrl-C reaches the whole process group, and npm start forwards a SIGTERM as well.
    ["Ctrl-C and a supervisor's SIGTERM arrive together", ['SIGINT', 'SIGTERM']],
  ] as const)(
    'when %s during a request, then the request still gets its answer and the process exits 0',
    async (_what, signals) => {
      // An "applications service" that accepts connections and never answers: the request waits for
      // its gRPC deadline, so it is surely in flight when the signal arrives.
      let holeBytes = 0;
      const hole = createNetServer((socket) => socket.on('data', (d: Buffer) => (holeBytes += d.length)));
      await new Promise<void>((r) => hole.listen(0, '127.0.0.1', () => r()));
      const holePort = (hole.address() as { port: number }).port;
      const port = await freePort();
      const child = spawn(process.execPath, ['--conditions=@switchboard/source', '--import', 'tsx', 'src/main.ts'], {
        cwd: serviceDir,
        env: {
          ...process.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          APPLICATIONS_GRPC_URL: `127.0.0.1:${holePort}`,
          GRPC_TIMEOUT_MS: '1500',
          LOG_LEVEL: 'info',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      try {
        await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).ok, {
          timeoutMs: 20_000,
          what: 'gateway',
        });
        const started = Date.now();
        const bytesBefore = holeBytes;
        const inflight = fetch(`http://127.0.0.1:${port}/v1/applications`, {
          headers: { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
        });
        // in flight: its gRPC call has reached the "applications service"
        await waitFor(() => holeBytes > bytesBefore, { what: "the request's gRPC call", intervalMs: 10 });
        for (const signal of signals) child.kill(signal);
        const res = await inflight;
        // The dependency never answered: a clean, retryable 503 after the deadline, not a reset.
        expect(res.status).toBe(503);
        expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
        expect(((await res.json()) as { code: string }).code).toBe('unavailable');
        expect(await exited).toBe(0);
        expect(stdout).toMatch(/"msg":"draining"/);
        expect(stdout).toMatch(/"msg":"stopped"/);
        expect(stdout).not.toMatch(/second signal/);
      } finally {
        child.kill('SIGKILL');
        hole.close();
      }
    },
    40_000,
  );
});
