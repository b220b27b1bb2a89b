// Shared pieces of the benchmarks: processes on free ports, autocannon runs, a result table.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import autocannon, { type Request as AutocannonRequest } from 'autocannon';
import { waitFor } from '@switchboard/testing';

export const root = new URL('..', import.meta.url).pathname;

export interface Proc {
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts `node --import tsx <script>` in `cwd` with `env`; its output goes to the bench log only on failure. */
export function startProcess(name: string, cwd: string, script: string, env: Record<string, string>): Proc {
  const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: join(root, cwd), env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  child.on('exit', (code) => {
    if (code && code !== 0) process.stderr.write(`${name} exited with ${code}\n${stderr}\n`);
  });
  return {
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}

export async function waitHttp(url: string, what: string, ok = (s: number) => s < 500): Promise<void> {
  await waitFor(async () => ok((await fetch(url)).status), { timeoutMs: 60_000, what });
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST' | 'PUT';
  headers?: Record<string, string>;
  body?: string | (() => string);
  connections: number;
  seconds: number;
}

export async function load(o: LoadOptions): Promise<LoadResult> {
  const body = o.body;
  const result = await autocannon({
    url: o.url,
    method: o.method ?? 'GET',
    headers: o.headers ?? {},
    connections: o.connections,
    duration: o.seconds,
    ...(typeof body === 'function'
      ? { requests: [{ setupRequest: (req: AutocannonRequest) => ({ ...req, body: body() }) }] }
      : body !== undefined
        ? { body }
        : {}),
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ')).join('\n');
}

export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
