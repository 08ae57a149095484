/**
 * Give-backs under concurrency (CONTRACT part three "Refunds and repairs"): random batches of
 * orders/paid, refunds/create (some redelivered under the same or another webhook id) and
 * orders/cancelled, all fired at once across TWO app instances sharing one PostgreSQL database
 * and one Redis. However they interleave: every refund id gives back at most once, counters end
 * at what was counted minus what was given back and never below zero, per-customer redemptions
 * count exactly the orders still carrying a gift of the rule, and a rule whose small budget is
 * spent is out of GET /rules on both instances exactly when its counter says so. PostgreSQL
 * project only: PGlite runs one transaction at a time, so nothing would overlap.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../src/db/database.ts';
import { giftBudgetUsage, orderGiveBacks, orders, redemptions } from '../../src/db/schema.ts';
import { SECRET, deliver, domainOf, ordersPaidText } from '../platform-webhooks/fixtures.ts';
import { liveCampaign, rule } from '../evaluate/helpers.ts';
import { importCampaigns, readCampaign } from '../rules/helpers.ts';
import { createTestDatabase, POSTGRES_ONLY, testDbKind } from '../support/database.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { cancelledText, giftProperties, refundText } from './fixtures.ts';
import type { GiftRef } from './fixtures.ts';

const SMALL_BUDGET = 5;
const CUSTOMERS = 3;

type OrderSpec = { big: number; small: number; customer: number };
type Command =
  | { kind: 'paid'; order: number }
  | { kind: 'refund'; order: number; refund: number; big: number; small: number; webhook: number }
  | { kind: 'cancel'; order: number; webhook: number };

const orderSpec = fc.record({ big: fc.integer({ min: 1, max: 3 }), small: fc.integer({ min: 0, max: 2 }), customer: fc.integer({ min: 0, max: CUSTOMERS - 1 }) });
const batch = fc.array(orderSpec, { minLength: 2, maxLength: 4 }).chain((specs) => {
  const order = fc.integer({ min: 0, max: specs.length - 1 });
  // Refund ids repeat across commands on purpose: the same refund delivered again, under the same webhook id or another.
  const refund = fc.record({ kind: fc.constant('refund' as const), order, refund: fc.integer({ min: 0, max: 9 }), big: fc.integer({ min: 0, max: 3 }), small: fc.integer({ min: 0, max: 2 }), webhook: fc.integer({ min: 0, max: 1 }) });
  const cancel = fc.record({ kind: fc.constant('cancel' as const), order, webhook: fc.integer({ min: 0, max: 1 }) });
  const others = fc.array(fc.oneof({ arbitrary: refund, weight: 4 }, { arbitrary: cancel, weight: 1 }), { minLength: 16, maxLength: 40 });
  return fc.tuple(fc.constant(specs), others, fc.infiniteStream(fc.nat()));
});

describe.skipIf(testDbKind() !== 'postgres')('give-backs racing intakes and each other on two instances', () => {
  let first: TestApp;
  let second: TestApp;
  let shop: TestShop;
  let domain: string;
  let big: GiftRef;
  let small: GiftRef;

  beforeAll(async () => {
    const database = await createTestDatabase();
    const settings = { RATE_LIMIT_SCALE: '100', PLATFORM_APP_SECRET: SECRET };
    first = await createTestApp(settings, { database });
    second = await createTestApp(settings, { database: await openPostgres(database.url as string, { migrate: false, poolSize: 5 }) });
    shop = await first.createShop('scale');
    domain = await domainOf(first, shop.id);
    const tree = { type: 'cart.item_count_gte', value: 1 };
    const budgeted = (name: string, maxGifts: number) => ({ ...rule(name, tree), options: { ...rule(name, tree).options, budget: { maxGifts, window: 'total' } } });
    const [campaignId = ''] = await importCampaigns(first, shop, [
      liveCampaign('Race', [budgeted('Big', 1_000_000), budgeted('Small', SMALL_BUDGET)], { budget: { maxGifts: 1_000_000, window: 'total' } }),
    ]);
    const [bigId = '', smallId = ''] = (await readCampaign(first, shop, campaignId)).rules.map((r) => r.id);
    big = { campaignId, ruleId: bigId };
    small = { campaignId, ruleId: smallId };
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  const counter = async (scope: 'rule' | 'campaign', scopeId: string) =>
    (
      await first.ctx.db
        .select({ used: giftBudgetUsage.used })
        .from(giftBudgetUsage)
        .where(and(eq(giftBudgetUsage.shopId, shop.id), eq(giftBudgetUsage.scope, scope), eq(giftBudgetUsage.scopeId, scopeId)))
    )[0]?.used ?? 0;
  const liveOn = async (app: TestApp) =>
    ((await app.api(shop, { method: 'GET', url: '/api/v1/rules' })).json() as { rules: Array<{ id: string }> }).rules.some((r) => r.id === small.ruleId);

  let run = 0;
  it(`${POSTGRES_ONLY}ends with counters = counted − given back, each refund given back once, never below zero`, async () => {
    await fc.assert(
      fc.asyncProperty(batch, async ([specs, others, coin]) => {
        run += 1;
        const ids = specs.map((_, i) => `${900_000 + run * 100 + i}`);
        // Customers of this run only: a failed run (and fast-check's shrinking) leaves no counts behind for the next.
        const customers = Array.from({ length: CUSTOMERS }, (_, i) => `${880_000 + run * 10 + i}`);
        const commands: Command[] = [...specs.map((_, order) => ({ kind: 'paid' as const, order })), ...others];
        // A random interleaving: shuffled into three waves, each wave all in flight at once on
        // alternating instances. Orders lean to the early waves, so that most refunds find their order.
        const waved = commands.map((command) => ({ command, key: coin.next().value, wave: (coin.next().value % 3) * (command.kind === 'paid' ? 0.5 : 1) }));
        const shuffled = waved.sort((a, b) => a.wave - b.wave || a.key - b.key).map((entry) => entry.command);
        const waves = [0, 1, 2].map((wave) => waved.filter((entry) => Math.ceil(entry.wave) === wave).length);
        const bigBefore = await counter('rule', big.ruleId);

        const send = (command: Command, index: number) => {
          const app = index % 2 === 0 ? first : second;
          const id = ids[command.order] as string;
          const spec = specs[command.order] as OrderSpec;
          if (command.kind === 'paid') {
            const lines = [{}, { quantity: spec.big, properties: giftProperties(big) }, ...(spec.small > 0 ? [{ quantity: spec.small, properties: giftProperties(small) }] : [])];
            return deliver(app, ordersPaidText({ id, customerId: Number(customers[spec.customer]), lines }), { topic: 'orders/paid', domain, webhookId: `paid-${id}` });
          }
          if (command.kind === 'cancel') return deliver(app, cancelledText({ orderId: id }), { topic: 'orders/cancelled', domain, webhookId: `cancel-${id}-${command.webhook}` });
          const refundId = `${id}${command.refund}`;
          // A refund id always refunds the same lines, as the platform's would.
          const same = others.find((c): c is Extract<Command, { kind: 'refund' }> => c.kind === 'refund' && c.order === command.order && c.refund === command.refund) ?? command;
          const lines = [
            ...(same.big > 0 ? [{ quantity: same.big, gift: big }] : []),
            ...(same.small > 0 ? [{ quantity: same.small, gift: small }] : []),
          ];
          return deliver(app, refundText({ id: refundId, orderId: id, lines }), { topic: 'refunds/create', domain, webhookId: `refund-${refundId}-${command.webhook}` });
        };
        const answers: Awaited<ReturnType<typeof send>>[] = [];
        for (let start = 0, wave = 0; wave < waves.length; start += waves[wave] ?? 0, wave += 1) {
          const slice = shuffled.slice(start, start + (waves[wave] ?? 0));
          answers.push(...(await Promise.all(slice.map((command, i) => send(command, start + i)))));
        }
        for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);

        // Each refund id (and each order's cancellation) was given back by at most one delivery.
        const applied = new Map<string, number>();
        shuffled.forEach((command, i) => {
          const body = answers[i]?.json() as { duplicate: boolean; givenBack?: unknown };
          if (command.kind === 'paid' || body.duplicate || !body.givenBack) return;
          const key = command.kind === 'cancel' ? `${command.order}:cancel` : `${command.order}:${command.refund}`;
          applied.set(key, (applied.get(key) ?? 0) + 1);
        });
        expect([...applied.values()].every((n) => n === 1), JSON.stringify([...applied])).toBe(true);

        // The model: a cancellation gives back the rest; refunds give back min(units, their sum), in any order.
        const given = specs.map((spec, order) => {
          const refunds = others.filter((c): c is Extract<Command, { kind: 'refund' }> => c.kind === 'refund' && c.order === order && applied.has(`${order}:${c.refund}`));
          const distinct = [...new Map(refunds.map((c) => [c.refund, others.find((o): o is typeof c => o.kind === 'refund' && o.order === order && o.refund === c.refund) ?? c])).values()];
          if (applied.has(`${order}:cancel`)) return { big: spec.big, small: spec.small };
          return { big: Math.min(spec.big, distinct.reduce((s, c) => s + c.big, 0)), small: Math.min(spec.small, distinct.reduce((s, c) => s + c.small, 0)) };
        });
        const bigCounted = specs.reduce((s, spec) => s + spec.big, 0);
        const bigGiven = given.reduce((s, g) => s + g.big, 0);
        expect(await counter('rule', big.ruleId)).toBe(bigBefore + bigCounted - bigGiven);

        // The small budget: counters = what the orders were charged − what their give-backs returned, within [0, budget].
        const charged = await first.ctx.db.select({ charges: orders.budgetCharges }).from(orders).where(and(eq(orders.shopId, shop.id)));
        const smallCharged = charged.flatMap((row) => row.charges ?? []).filter((c) => c.ruleId === small.ruleId).reduce((s, c) => s + c.units, 0);
        const allCharged = charged.flatMap((row) => row.charges ?? []).reduce((s, c) => s + c.units, 0);
        const [returned] = await first.ctx.db
          .select({ units: sql<number>`coalesce(sum(${orderGiveBacks.budgetUnits}), 0)::int` })
          .from(orderGiveBacks)
          .where(eq(orderGiveBacks.shopId, shop.id));
        const smallNow = await counter('rule', small.ruleId);
        expect(smallNow).toBeGreaterThanOrEqual(0);
        expect(smallNow).toBeLessThanOrEqual(SMALL_BUDGET);
        // Every charge reaches the campaign counter and the rule's; every give-back leaves both.
        expect((await counter('rule', big.ruleId)) + smallNow).toBe(allCharged - (returned?.units ?? 0));
        expect(await counter('campaign', big.campaignId)).toBe(allCharged - (returned?.units ?? 0));
        expect(smallCharged).toBeGreaterThanOrEqual(smallNow);

        // Redemptions: per (customer, rule), the orders still carrying a unit of it.
        const rows = await first.ctx.db
          .select({ customerId: redemptions.customerId, ruleId: redemptions.ruleId, count: redemptions.count })
          .from(redemptions)
          .where(and(eq(redemptions.shopId, shop.id), inArray(redemptions.customerId, customers)));
        for (const row of rows) expect(row.count).toBeGreaterThan(0);
        const totals = specs.map((spec, order) => ({ customer: customers[spec.customer] as string, big: spec.big > (given[order]?.big ?? 0), small: spec.small > (given[order]?.small ?? 0) }));
        for (const customer of customers) {
          const carrying = (which: 'big' | 'small') => totals.filter((o) => o.customer === customer && o[which]).length;
          const count = (ruleId: string) => rows.find((r) => r.customerId === customer && r.ruleId === ruleId)?.count ?? 0;
          expect(count(big.ruleId), `${customer} big`).toBe(carrying('big'));
          expect(count(small.ruleId), `${customer} small`).toBe(carrying('small'));
        }

        // The small rule is live on both instances exactly while its budget has room.
        expect(await liveOn(first), `first instance, small counter ${smallNow}`).toBe(smallNow < SMALL_BUDGET);
        expect(await liveOn(second), `second instance, small counter ${smallNow}`).toBe(smallNow < SMALL_BUDGET);
      }),
      { numRuns: 8, seed: 2026_11_27, endOnFailure: true },
    );
  }, 180_000);
});
