// A real Prometheus on loopback for the live deploy checks: started on a free port with the
// repository's scrape configuration pointed at a running stack (deploy/prometheus/config.ts), its
// HTTP API queried, and every dashboard query checked to answer with data.
//
//   const prom = await startPrometheus({ gateway: '127.0.0.1:41001', ... }, { scrapeInterval: '1s' });
//   const problems = await checkQueries(prom, allDashboardQueries(), { retryForMs: 20_000 });
//   await prom.stop();
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../../test/support/infra';
import { prometheusConfigFor, type ScrapeTargets } from '../../prometheus/config';
import { requireTool } from './tools';

export type QueryAnswer =
  | {
      ok: true;
      resultType: string /** Series (vector, matrix) or 1 for a scalar or string. */;
      size: number;
      result: unknown;
    }
  | { ok: false; error: string };

export interface PrometheusServer {
  url: string;
  /** Instant query at the current time through POST /api/v1/query. */
  query(expr: string): Promise<QueryAnswer>;
  /** Waits until every job of `jobs` has an `up` series equal to 1. */
  waitForTargets(jobs: readonly string[], timeoutMs?: number): Promise<void>;
  /** Waits until every job of `jobs` was scraped at or after `atMs` (epoch ms). */
  waitForScrapeAfter(jobs: readonly string[], atMs: number, timeoutMs?: number): Promise<void>;
  /** The last lines Prometheus logged. */
  log(): string;
  /** Kills the process (SIGTERM, then SIGKILL) and removes its data directory. */
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startPrometheus(
  targets: ScrapeTargets,
  opts: { scrapeInterval?: string; evaluationInterval?: string; binary?: string; readyTimeoutMs?: number } = {},
): Promise<PrometheusServer> {
  const binary = opts.binary ?? requireTool('prometheus');
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-prometheus-'));
  let child: ChildProcess | undefined;
  let log = '';
  let exited: Promise<void> = Promise.resolve();
  const stop = async () => {
    const c = child;
    if (c && c.exitCode === null && c.signalCode === null) {
      c.kill('SIGTERM');
      const t = setTimeout(() => c.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(t);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const config = join(dir, 'prometheus.yml');
    writeFileSync(
      config,
      prometheusConfigFor(targets, {
        ...(opts.scrapeInterval ? { scrapeInterval: opts.scrapeInterval } : {}),
        ...(opts.evaluationInterval ? { evaluationInterval: opts.evaluationInterval } : {}),
      }),
    );
    mkdirSync(join(dir, 'data'));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const c = spawn(
      binary,
      [
        `--config.file=${config}`,
        `--storage.tsdb.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        '--log.level=warn',
      ],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    child = c;
    c.stderr!.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-8000)));
    exited = new Promise<void>((r) => c.once('exit', () => r()));
    const deadline = Date.now() + (opts.readyTimeoutMs ?? 30_000);
    for (;;) {
      if (c.exitCode !== null || c.signalCode !== null)
        throw new Error(`prometheus exited (${c.exitCode ?? c.signalCode}):\n${log}`);
      const ready = await fetch(`${url}/-/ready`, { signal: AbortSignal.timeout(2000) }).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ready) break;
      if (Date.now() > deadline) throw new Error(`prometheus not ready on ${url}:\n${log}`);
      await sleep(100);
    }

    const query = async (expr: string): Promise<QueryAnswer> => {
      try {
        const res = await fetch(`${url}/api/v1/query`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ query: expr }).toString(),
          signal: AbortSignal.timeout(10_000),
        });
        const body = (await res.json()) as {
          status: string;
          error?: string;
          errorType?: string;
          data?: { resultType: string; result: unknown };
        };
        if (body.status !== 'success' || !body.data)
          return { ok: false, error: `${body.errorType ?? res.status}: ${body.error ?? 'no data'}` };
        const { resultType, result } = body.data;
        const size = Array.isArray(result) && (resultType === 'vector' || resultType === 'matrix') ? result.length : 1;
        return { ok: true, resultType, size, result };
      } catch (err) {
        return { ok: false, error: `request failed: ${(err as Error).message}` };
      }
    };
    // Job names are plain words (gateway, dispatcher...): no regex escaping needed.
    const jobsRegex = (jobs: readonly string[]) => jobs.join('|');
    const waitUntil = async (what: string, done: () => Promise<boolean>, timeoutMs: number) => {
      const until = Date.now() + timeoutMs;
      while (!(await done())) {
        if (Date.now() > until)
          throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}\nprometheus log:\n${log}`);
        await sleep(250);
      }
    };
    return {
      url,
      query,
      async waitForTargets(jobs, timeoutMs = 30_000) {
        await waitUntil(
          `up == 1 for ${jobs.join(', ')}`,
          async () => {
            const a = await query(`up{job=~"${jobsRegex(jobs)}"} == 1`);
            if (!a.ok || !Array.isArray(a.result)) return false;
            const seen = new Set((a.result as Array<{ metric: Record<string, string> }>).map((s) => s.metric.job));
            return jobs.every((j) => seen.has(j));
          },
          timeoutMs,
        );
      },
      async waitForScrapeAfter(jobs, atMs, timeoutMs = 30_000) {
        await waitUntil(
          `a scrape of ${jobs.join(', ')} after ${new Date(atMs).toISOString()}`,
          async () => {
            const a = await query(`timestamp(up{job=~"${jobsRegex(jobs)}"})`);
            if (!a.ok || !Array.isArray(a.result)) return false;
            const last = new Map(
              (a.result as Array<{ metric: Record<string, string>; value: [number, string] }>).map((s) => [
                s.metric.job,
                Number(s.value[1]),
              ]),
            );
            return jobs.every((j) => (last.get(j) ?? 0) * 1000 >= atMs);
          },
          timeoutMs,
        );
      },
      log: () => log,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

export interface NamedQuery {
  /** Where the query comes from, for the report (e.g. `api.json "Request rate" A`). */
  name: string;
  expr: string;
}

/**
 * Runs every query; one that errors fails at once, one that answers an empty result is tried again
 * every `intervalMs` until `retryForMs` has passed (series that appear late, such as retries).
 * Returns one line per query that never answered with data.
 */
export async function checkQueries(
  prom: PrometheusServer,
  queries: readonly NamedQuery[],
  opts: { retryForMs: number; intervalMs?: number },
): Promise<string[]> {
  const deadline = Date.now() + opts.retryForMs;
  const results = await Promise.all(
    queries.map(async (q) => {
      for (;;) {
        const a = await prom.query(q.expr);
        if (!a.ok) return `${q.name}: query error (${a.error}): ${q.expr}`;
        if (a.size > 0) return undefined;
        if (Date.now() >= deadline)
          return `${q.name}: empty result (no series) after ${Math.round(opts.retryForMs / 1000)} s: ${q.expr}`;
        await sleep(opts.intervalMs ?? 1000);
      }
    }),
  );
  return results.filter((r): r is string => r !== undefined);
}
