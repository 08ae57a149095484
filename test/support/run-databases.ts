/** Every PostgreSQL database a test run clones is named with this prefix; the run's teardown drops them. */
export const testDatabasePrefix = (runId: string): string => `gcrs_test_${runId}_`;
