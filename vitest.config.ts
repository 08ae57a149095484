import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Every test runs on embedded PGlite. When TEST_DATABASE_URL is set (CI sets it, with
// TEST_REDIS_URL), the tests that touch storage run a second time on PostgreSQL and Redis.
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const storageTests = ['test/**/*.test.ts'];
const pureTests = ['test/unit/**', 'test/rate-limit/**', 'test/db/**', 'test/standin/**', 'test/embed/**'];
// Real Chromium beside the stand-in storefront (test/support/chromium.ts): their own project,
// one file at a time and after the other projects, so a browser never starves the rest.
const browserTests = ['test/browser/**/*.test.ts'];

// The repo runs @gcrs/engine from source: its exports map sends the "@gcrs/source"
// condition to src/*.ts (the default is the built dist/, which the repo never needs).
// Vite's own server defaults follow, as setting conditions replaces them.
const sourceConditions = ['@gcrs/source', 'module', 'node', 'development|production'];

export default defineConfig({
  ssr: { resolve: { conditions: sourceConditions } },
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    // One worker per core: more only time-slice the same cores and the databases behind them.
    maxWorkers: availableParallelism(),
    // Files share a worker's module cache instead of re-importing Fastify, Drizzle, Zod and
    // PGlite's WebAssembly for each file (that import was over a third of the suite's time).
    // Safe because every file builds its own app and database (test/support) and the source
    // keeps no per-shop state in modules; a file that needs a fresh module graph can still
    // ask for one with `vi.resetModules()`.
    isolate: false,
    testTimeout: 20_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'pglite',
          include: ['test/**/*.test.ts'],
          exclude: browserTests,
          env: { TEST_DB_KIND: 'pglite' },
        },
      },
      {
        extends: true,
        test: {
          // The packages' own tests (pure code, no database) in workers of their own: several
          // run on fake timers, which in a worker shared with the suite's PGlite instances also
          // took PGlite's own timers (runAllTimers then aborted after 10,000 of them).
          name: 'packages',
          include: ['packages/*/test/**/*.test.ts'],
          isolate: true,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: browserTests,
          env: { TEST_DB_KIND: 'pglite' },
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
          // A page reacts in milliseconds alone, in seconds beside a busy suite.
          expect: { poll: { timeout: 10_000, interval: 50 } },
        },
      },
      ...(onPostgres
        ? [
            {
              extends: true,
              test: {
                name: 'postgres',
                include: storageTests,
                exclude: [...pureTests, ...browserTests],
                env: { TEST_DB_KIND: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
});
