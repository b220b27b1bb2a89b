// The console's browser tests: one stack (test/global-setup.ts: the real services, Postgres and
// NATS) and one Chromium for every file, the files one at a time.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The workspaces' sources, not their build (see the repository's vitest.config.ts).
  ssr: { resolve: { conditions: ['@switchboard/source'] } },
  // And the global setup's (test/global-setup.ts), which runs in Vitest's own process.
  environments: { __vitest__: { resolve: { conditions: ['@switchboard/source'] } } },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Under `npm test` another workspace's tests share the two cores: room for a slow spell.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // A page waits for the real stack (a test send, a delivery): under load that takes seconds, not
    // the default second of expect.poll. A poll that sees the right answer returns at once.
    expect: { poll: { timeout: 15_000 } },
    maxWorkers: 1,
    pool: 'forks',
    env: { PASSWORD_SCRYPT_N: String(2 ** 14) },
  },
});
