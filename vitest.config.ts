import { defineConfig } from 'vitest/config';

// Every test runs on embedded PGlite. When TEST_DATABASE_URL is set (CI sets it, with
// TEST_REDIS_URL), the tests that touch storage run a second time on PostgreSQL and Redis.
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const storageTests = ['test/**/*.test.ts'];
const pureTests = ['test/unit/**', 'test/rate-limit/**', 'test/db/**'];

export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    // 2 cores: a few workers keep the suite parallel without starving the databases.
    maxWorkers: 3,
    testTimeout: 20_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'pglite',
          include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
          env: { TEST_DB_KIND: 'pglite' },
        },
      },
      ...(onPostgres
        ? [
            {
              extends: true,
              test: {
                name: 'postgres',
                include: storageTests,
                exclude: pureTests,
                env: { TEST_DB_KIND: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
});
