/**
 * Reads what the rules payload is made of in ONE snapshot (REPEATABLE READ), together with
 * the shop's rules_version: the version a cache entry is stamped with then names exactly
 * the data it was built from, whatever writers commit meanwhile.
 */
import type { EngineExperiment } from '@gcrs/engine';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { toRuleRecord } from '../campaigns/store.ts';
import { giftVariantFacts } from '../catalog/stock.ts';
import type { Database } from '../db/database.ts';
import { campaigns, collections, experiments, rules, shops } from '../db/schema.ts';
import { budgetUsageAt } from '../budgets/usage.ts';
import { widgetSettingsOf } from '../widgets/store.ts';
import type { RulesSource } from './payload.ts';
import { collectionReferences, namesCollection } from './storefront-variant.ts';
import { bytewise } from '../db/collation.ts';

/**
 * The shop's live campaigns, their enabled rules, running experiments, the catalog
 * collections those rules name, which of their gifts are sold out and the budget counters of
 * the windows holding `at` (epoch ms), or undefined when the shop does not exist.
 *
 * @example
 *   const source = await loadRulesSource(ctx.db, shop.id, Date.now()); // source.shop.rulesVersion
 */
export async function loadRulesSource(db: Database, shopId: string, at: number = Date.now()): Promise<RulesSource | undefined> {
  return db.transaction(
    async (tx) => {
      const [shop] = await tx
        .select({
          id: shops.id,
          plan: shops.plan,
          currency: shops.currency,
          timezone: shops.timezone,
          settings: shops.settings,
          rulesVersion: shops.rulesVersion,
          widgets: shops.widgets,
          widgetsVersion: shops.widgetsVersion,
        })
        .from(shops)
        .where(eq(shops.id, shopId));
      if (!shop) return undefined;

      const live = await tx
        .select({ id: campaigns.id, startAt: campaigns.startAt, endAt: campaigns.endAt, budget: campaigns.budget })
        .from(campaigns)
        .where(and(eq(campaigns.shopId, shopId), eq(campaigns.enabled, true), eq(campaigns.isDraft, false)))
        .orderBy(asc(campaigns.createdAt), asc(bytewise(campaigns.id)));
      const liveIds = live.map((campaign) => campaign.id);

      const ruleRows =
        liveIds.length === 0
          ? []
          : await tx
              .select()
              .from(rules)
              .where(and(eq(rules.shopId, shopId), eq(rules.enabled, true), inArray(rules.campaignId, liveIds)))
              .orderBy(asc(rules.position), asc(bytewise(rules.id)));
      const running =
        liveIds.length === 0
          ? []
          : await tx
              .select({ id: experiments.id, campaignId: experiments.campaignId, variants: experiments.variants })
              .from(experiments)
              .where(
                and(eq(experiments.shopId, shopId), eq(experiments.status, 'running'), inArray(experiments.campaignId, liveIds)),
              )
              .orderBy(asc(experiments.startedAt), asc(bytewise(experiments.id)));

      // Rules in campaign order (oldest campaign first), each campaign's rules by position.
      const order = new Map(liveIds.map((id, index) => [id, index]));
      const sorted = ruleRows
        .map((row, index) => ({ row, index }))
        .sort((a, b) => (order.get(a.row.campaignId) ?? 0) - (order.get(b.row.campaignId) ?? 0) || a.index - b.index)
        .map(({ row }) => row);
      const ruleRecords = sorted.map(toRuleRecord);

      // The collections the live rules name, for the storefront's collection map; no read
      // when no rule names one (the common case, and every API-only shop).
      const references = collectionReferences(ruleRecords);
      const named =
        references.length === 0
          ? []
          : (
              await tx
                .select({ id: collections.id, handle: collections.handle, productIds: collections.productIds })
                .from(collections)
                .where(eq(collections.shopId, shopId))
                .orderBy(asc(bytewise(collections.id)))
            ).filter((collection) => references.some((reference) => namesCollection(reference, collection)));

      // Gift stock, names and prices: one read of the gift variants, in the same snapshot as the rules.
      const giftIds = ruleRecords.flatMap((rule) => rule.giftConfig.gifts.map((gift) => gift.variantId));
      const gifts = await giftVariantFacts(tx, shopId, giftIds);

      // Budget counters of the current windows; no read when no live rule or campaign has a budget.
      const budgetUsage = await budgetUsageAt(tx, shopId, { rules: ruleRecords, campaigns: live, timeZone: shop.timezone }, at);

      return {
        soldOutGifts: gifts.soldOut,
        budgetUsage,
        giftTitles: gifts.titles,
        giftPrices: gifts.prices,
        shop: {
          id: shop.id,
          plan: shop.plan,
          currency: shop.currency,
          timezone: shop.timezone,
          settings: shop.settings,
          rulesVersion: shop.rulesVersion,
          widgets: widgetSettingsOf(shop.widgets, shop.widgetsVersion),
        },
        campaigns: live,
        rules: ruleRecords,
        experiments: running.map(toEngineExperiment),
        collections: named,
      };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/** The engine's shape (engineExperimentSchema): variant names are for people, not storefronts. */
function toEngineExperiment(row: { id: string; campaignId: string; variants: Array<{ id: string; ruleId: string; weight: number }> }): EngineExperiment {
  return {
    id: row.id,
    campaignId: row.campaignId,
    variants: row.variants.map((variant) => ({ id: variant.id, ruleId: variant.ruleId, weight: variant.weight })),
  };
}
