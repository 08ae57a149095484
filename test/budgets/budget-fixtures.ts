/**
 * Shared setup of the budget tests (budgets.test.ts, budget-windows.test.ts): one app on an
 * injected clock with two shops and a webhook endpoint, a budgeted rule, a gift line, and
 * readers of a campaign, the live rule ids and the budget counters.
 */
import { and, eq } from 'drizzle-orm';
import { giftBudgetUsage, webhookEndpoints } from '../../src/db/schema.ts';
import { rule } from '../evaluate/helpers.ts';
import { SECRET } from '../platform-webhooks/fixtures.ts';
import { payloadOf, readCampaign } from '../rules/helpers.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

export const budgeted = (name: string, budget: unknown) => {
  const base = rule(name, { type: 'cart.item_count_gte', value: 1 });
  return { ...base, options: { ...base.options, budget } };
};

export const gift = (campaignId: string, ruleId: string, quantity = 1) => ({ quantity, gift: { campaignId, ruleId } });

export type Campaign = Awaited<ReturnType<typeof readCampaign>> & { budget?: unknown; budgetUsage?: Record<string, unknown> };

/** The app on `now`, with two shops; the first has an order.converted endpoint. */
export async function openBudgetApp(now: () => Date): Promise<{ t: TestApp; shop: TestShop; other: TestShop }> {
  const t = await createTestApp({ PLATFORM_APP_SECRET: SECRET }, { now });
  const [shop, other] = await Promise.all([t.createShop('scale'), t.createShop('scale')]);
  await t.ctx.db
    .insert(webhookEndpoints)
    .values({ shopId: shop.id, id: 'whe_budget', url: 'https://hooks.example.com/b', events: ['order.converted'], secret: 'whsec_dGVzdA==' });
  return { t, shop, other };
}

/** Readers over the app `app()` returns (it is opened in a beforeAll). */
export function budgetReaders(app: () => TestApp) {
  const read = async (target: TestShop, id: string) => (await readCampaign(app(), target, id)) as Campaign;
  const ruleIdsOf = async (target: TestShop) => (await payloadOf(app(), target)).rules.map((r) => r.id);
  const counter = async (shopId: string, scope: 'rule' | 'campaign', scopeId: string) =>
    (
      await app()
        .ctx.db.select({ windowStart: giftBudgetUsage.windowStart, used: giftBudgetUsage.used })
        .from(giftBudgetUsage)
        .where(and(eq(giftBudgetUsage.shopId, shopId), eq(giftBudgetUsage.scope, scope), eq(giftBudgetUsage.scopeId, scopeId)))
    ).sort((a, b) => (a.windowStart < b.windowStart ? -1 : 1));
  return { read, ruleIdsOf, counter };
}
