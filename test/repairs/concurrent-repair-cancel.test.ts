/**
 * Repairs racing cancellations on TWO app instances sharing one PostgreSQL database (docs/repairs.md
 * "Cancelled before the repair ended"): paid orders that lack their gift are planned, then each
 * instance runs the repair jobs while cancellations of random orders arrive at random moments on
 * either instance. However they interleave, once every job has ended the budget counter and the
 * redemptions are what was counted minus what was given back — exactly one per order that is
 * still not cancelled and repaired — and never below zero. PostgreSQL project only: PGlite runs
 * one transaction at a time, so nothing would overlap.
 */
import { and, eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlatformStandin } from '../../dev/platform/platform.ts';
import { openPostgres } from '../../src/db/database.ts';
import { giftBudgetUsage, orderRepairs, outbox, redemptions } from '../../src/db/schema.ts';
import { cancelledText } from '../give-backs/fixtures.ts';
import { deliver, SECRET } from '../platform-webhooks/fixtures.ts';
import { createTestDatabase, testDbKind } from '../support/database.ts';
import { startTestPlatform } from '../support/platform-standin.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { connectedShop, giftRule, paidOrder, runJobs } from './fixtures.ts';

describe.skipIf(testDbKind() !== 'postgres')('repairs racing cancellations on two instances', () => {
  let first: TestApp;
  let second: TestApp;
  let platform: PlatformStandin;

  beforeAll(async () => {
    platform = await startTestPlatform(SECRET);
    const database = await createTestDatabase();
    const settings = { RATE_LIMIT_SCALE: '100', PLATFORM_APP_SECRET: SECRET, PLATFORM_ADMIN_API_URL: platform.url, PLATFORM_DISCOUNT_FUNCTION_ID: 'fn-gifts-1' };
    first = await createTestApp(settings, { database });
    second = await createTestApp(settings, { database: await openPostgres(database.url as string, { migrate: false, poolSize: 5 }) });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await platform?.close();
  });

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const apps = () => [first, second] as const;

  it('counters = counted − given back, never below zero', async () => {
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ cancelled: fc.boolean(), delayMs: fc.integer({ min: 0, max: 40 }), on: fc.integer({ min: 0, max: 1 }), twice: fc.boolean() }), { minLength: 3, maxLength: 6 }),
        async (specs) => {
          round += 1;
          const world = await connectedShop(first, platform, [giftRule('Free mug', 970 + round, {}, { budget: { maxGifts: 1000 } })]);
          const ruleId = world.ruleIds[0] ?? '';
          const orders: string[] = [];
          for (const [index] of specs.entries()) orders.push((await paidOrder(apps()[index % 2] ?? first, platform, world.domain, { customerId: 8000 + round * 10 + index })).id);

          const cancels = specs.flatMap((spec, index) =>
            spec.cancelled
              ? [
                  (async () => {
                    await sleep(spec.delayMs);
                    const app = apps()[spec.on] ?? first;
                    const body = cancelledText({ orderId: orders[index] ?? '' });
                    const answers = [deliver(app, body, { topic: 'orders/cancelled', domain: world.domain })];
                    if (spec.twice) answers.push(deliver(apps()[1 - spec.on] ?? first, body, { topic: 'orders/cancelled', domain: world.domain }));
                    for (const res of await Promise.all(answers)) expect(res.statusCode, res.body).toBe(200);
                  })(),
                ]
              : [],
          );
          await Promise.all([...cancels, runJobs(first), runJobs(second)]);
          // Whatever is still retrying (throttled never here, but a run that found the row moved) ends now.
          for (let pass = 0; pass < 5; pass += 1) {
            await first.ctx.db.update(outbox).set({ nextAttemptAt: new Date() }).where(and(eq(outbox.shopId, world.shop.id), eq(outbox.status, 'pending')));
            await Promise.all([runJobs(first), runJobs(second)]);
          }

          const rows = await first.ctx.db.select().from(orderRepairs).where(eq(orderRepairs.shopId, world.shop.id));
          const statusOf = new Map(rows.map((row) => [row.orderId, row.status]));
          const kept = specs.filter((spec, index) => !spec.cancelled && statusOf.get(orders[index] ?? '') === 'repaired').length;
          for (const [index, spec] of specs.entries()) {
            const status = statusOf.get(orders[index] ?? '');
            // A cancelled order's repair was cancelled before it ended, or repaired and then given back.
            expect(spec.cancelled ? ['cancelled', 'repaired', 'failed'] : ['repaired']).toContain(status);
          }
          const [usage] = await first.ctx.db.select().from(giftBudgetUsage).where(and(eq(giftBudgetUsage.shopId, world.shop.id), eq(giftBudgetUsage.scopeId, ruleId)));
          const counted = await first.ctx.db.select().from(redemptions).where(and(eq(redemptions.shopId, world.shop.id), eq(redemptions.ruleId, ruleId)));
          expect(usage?.used ?? 0).toBe(kept);
          expect(counted.reduce((sum, row) => sum + row.count, 0)).toBe(kept);
          for (const row of counted) expect(row.count).toBeGreaterThanOrEqual(0);
        },
      ),
      { numRuns: 4 },
    );
  });
});
