/**
 * The shop's checkout function configuration (CONTRACT "Checkout"), built from exactly the
 * rules payload GET /rules serves (payload.ts), so the checkout re-checks what the storefront
 * evaluated. Also the enable route's size check: the live rules with one more campaign.
 */
import { buildCheckoutConfig } from '@gcrs/engine/checkout';
import type { CheckoutConfigBuild } from '@gcrs/engine/checkout';
import { and, eq } from 'drizzle-orm';
import type { RuleRecord } from '../campaigns/store.ts';
import { toRuleRecord } from '../campaigns/store.ts';
import type { Database, Queryable } from '../db/database.ts';
import { campaigns, collections, rules } from '../db/schema.ts';
import { buildRulesPayload } from '../rules/payload.ts';
import { loadRulesSource } from '../rules/load-source.ts';
import { resolveShopSettings } from '../shops/settings.ts';
import type { StoredShopSettings } from '../shops/settings.ts';

/**
 * The configuration of the shop's live rules at `at` (epoch ms) and the instant it stops
 * being exact (the next schedule boundary, Infinity when none); undefined when the shop is gone.
 *
 * @example const current = await shopCheckoutConfig(db, shop.id); // current?.built.bytes, current?.until
 */
export async function shopCheckoutConfig(
  db: Database,
  shopId: string,
  at: number = Date.now(),
): Promise<{ built: CheckoutConfigBuild; until: number } | undefined> {
  const source = await loadRulesSource(db, shopId, at);
  if (source === undefined) return undefined;
  const { payload, segment } = buildRulesPayload(source, at);
  return { built: buildCheckoutConfig(payload, source.collections), until: segment.until };
}

/**
 * The configuration the shop would have with `campaignId` live too (its enabled `extra`
 * rules added to the live ones), read inside the caller's transaction. Schedules are
 * ignored (every live rule counted): the check must hold whenever the windows open.
 *
 * @example const built = await configWithCampaign(uow.tx, uow.shop, before.id, before.rules);
 */
export async function configWithCampaign(
  tx: Queryable,
  shop: { id: string; currency: string; settings: StoredShopSettings },
  campaignId: string,
  extra: readonly RuleRecord[],
): Promise<CheckoutConfigBuild> {
  const rows = await tx
    .select({ rule: rules })
    .from(rules)
    .innerJoin(campaigns, and(eq(campaigns.shopId, rules.shopId), eq(campaigns.id, rules.campaignId)))
    .where(and(eq(rules.shopId, shop.id), eq(rules.enabled, true), eq(campaigns.enabled, true), eq(campaigns.isDraft, false)));
  const live = rows.map((row) => toRuleRecord(row.rule)).filter((rule) => rule.campaignId !== campaignId);
  const catalog = await tx.select({ id: collections.id, handle: collections.handle }).from(collections).where(eq(collections.shopId, shop.id));
  return buildCheckoutConfig(
    {
      baseCurrency: shop.currency,
      rules: [...live, ...extra.filter((rule) => rule.enabled)],
      shopSettings: resolveShopSettings(shop.settings),
    },
    catalog,
  );
}
