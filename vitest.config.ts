import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The workspaces' sources, not their build (dist/): see customConditions in tsconfig.base.json.
  // Vitest also passes these conditions to its workers' node (--conditions).
  ssr: { resolve: { conditions: ['@switchboard/source'] } },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'services/*/src/**/*.test.ts',
      'services/*/test/**/*.test.ts',
      'deploy/test/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: run test files two at a time; each file brings up its own stack on free ports.
    maxWorkers: 2,
    pool: 'forks',
    // Tests create many accounts: hash passwords at 2^14 instead of the production 2^17 (about 8x faster).
    env: { PASSWORD_SCRYPT_N: String(2 ** 14) },
  },
});
