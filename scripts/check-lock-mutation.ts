/**
 * `npm run check:lock-mutation`: proves the concurrency tests can fail. It moves the shop lock
 * of the unit of work (src/shops/unit-of-work.ts) after the work — the shop read without a
 * lock, the lock taken once the inserts are done — runs the PostgreSQL-only concurrency tests of
 * shop writes, and restores the file whatever happens. It succeeds only when the tests fail
 * under the mutation. Needs TEST_DATABASE_URL and TEST_REDIS_URL, as `npm test` does.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const file = fileURLToPath(new URL('../src/shops/unit-of-work.ts', import.meta.url));
const LOCK_FIRST = '    const shop = await lockAndReadShop(tx, shopId);\n';
const WORK = '    const value = await work(uow);\n';
const UNLOCKED_READ =
  '    const [unlocked] = await tx.select().from(shops).where(eq(shops.id, shopId));\n' +
  "    if (!unlocked) throw notFound('Shop');\n" +
  '    const shop = toShopRecord(unlocked);\n';

if (!process.env.TEST_DATABASE_URL) {
  console.error('Set TEST_DATABASE_URL (and TEST_REDIS_URL): the concurrency tests run on PostgreSQL only.');
  process.exit(2);
}
const original = readFileSync(file, 'utf8');
if (!original.includes(LOCK_FIRST) || !original.includes(WORK)) {
  console.error(`${file} no longer has the lines this check mutates; update the check with it.`);
  process.exit(2);
}

const restore = () => writeFileSync(file, original);
process.on('SIGINT', () => {
  restore();
  process.exit(130);
});
writeFileSync(file, original.replace(LOCK_FIRST, UNLOCKED_READ).replace(WORK, `${WORK}    await lockAndReadShop(tx, shopId);\n`));
let status: number | null;
try {
  const files = ['test/consistency/concurrent-writes.test.ts', 'test/campaigns/import.test.ts', 'test/experiments/experiments.test.ts'];
  // Only the tests of shop writers that race (their titles start with POSTGRES_ONLY).
  const run = spawnSync('npx', ['vitest', 'run', '--project', 'postgres', '--reporter', 'verbose', '-t', 'PostgreSQL only', ...files], {
    stdio: 'inherit',
  });
  status = run.status;
} finally {
  restore();
}
if (status === 0) {
  console.error('\nThe concurrency tests PASSED with the shop lock taken after the work: they cannot catch that bug.');
  process.exit(1);
}
console.log('\nGood: with the shop lock taken after the work, the concurrency tests fail (see above). The file is restored.');
