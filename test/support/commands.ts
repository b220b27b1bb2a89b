// The repository's npm commands (npm run account, npm run numbers), run as an operator would.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
/** The repository root, where the npm scripts are defined. */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run --silent <script> -- ...args` at the repository root with `env` added; never throws on a non-zero exit. */
export async function runNpmScript(
  script: string,
  args: readonly string[],
  env: Record<string, string>,
): Promise<CommandResult> {
  try {
    const { stdout, stderr } = await run('npm', ['run', '--silent', script, '--', ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as CommandResult;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
