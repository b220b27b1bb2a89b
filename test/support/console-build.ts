// The console's build (console/dist), as npm start, the console's browser tests and its benchmark
// use it: built with Vite when it is missing or older than its sources (after a pull or an edit),
// so none of them serves or measures a stale page.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('../..', import.meta.url).pathname;
const CONSOLE = join(ROOT, 'console');
/** What the build is made from, besides the dependencies. */
const SOURCES = ['src', 'index.html', 'vite.config.ts', 'package.json'];

/** The newest modification time of a file or of any file under a folder, in ms (0 when missing). */
function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/** Why console/dist must be built ('missing' or 'stale'), or undefined when it is current. */
export function consoleBuildNeeded(): 'missing' | 'stale' | undefined {
  const built = newest(join(CONSOLE, 'dist/index.html'));
  if (!built) return 'missing';
  return Math.max(...SOURCES.map((f) => newest(join(CONSOLE, f)))) > built ? 'stale' : undefined;
}

/**
 * Builds console/dist when it is missing or stale; answers what it did ('missing' or 'stale' when it
 * built, undefined when the build was current). A failed build throws.
 */
export function ensureConsoleBuilt(): 'missing' | 'stale' | undefined {
  const need = consoleBuildNeeded();
  if (need)
    execFileSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
      cwd: CONSOLE,
      stdio: 'inherit',
      // A production build whatever the caller's NODE_ENV (vitest sets `test`, which would ship
      // React's development bundle and miss the bundle budget).
      env: { ...process.env, NODE_ENV: 'production' },
    });
  return need;
}
