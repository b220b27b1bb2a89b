// The deploy TypeScript (tests, helpers, queries.ts, scripts) is outside the root tsconfig's
// include list, and vitest does not type-check: tsc does it here, with the repository's settings.
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { DEPLOY_DIR, run, TSC } from './lib/tools';

it('deploy/**/*.ts type-checks (tsc -p deploy/tsconfig.json)', () => {
  const res = run(TSC, ['-p', join(DEPLOY_DIR, 'tsconfig.json'), '--noEmit', '--pretty', 'false'], {
    timeoutMs: 120_000,
  });
  expect(res.stdout + res.stderr).toBe('');
  expect(res.status).toBe(0);
}, 60_000);
