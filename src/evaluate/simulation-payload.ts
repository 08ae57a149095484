/**
 * The rules payload the admin simulator evaluates: campaigns in any state (drafts, disabled
 * or an inline campaign that was never saved), in the engine's shape. Pure: the database
 * read is in simulation-source.ts.
 */
import { stripDisallowedLeaves } from '@gcrs/engine';
import type { ConditionNode, EngineExperiment, GiftConfig, RuleOptions, RulesPayloadInput } from '@gcrs/engine';
import type { ImportCampaign } from '../campaigns/schemas.ts';
import type { Plan } from '../shops/plans.ts';
import { resolveShopSettings } from '../shops/settings.ts';
import type { StoredShopSettings } from '../shops/settings.ts';

export type SimulatedRule = {
  id: string;
  name: string;
  enabled: boolean;
  conditionTree: ConditionNode;
  giftConfig: GiftConfig;
  options: RuleOptions;
};

/** A campaign as the simulator sees it: its window and its rules, whatever its state. */
export type SimulatedCampaign = { id: string; startAt: Date | null; endAt: Date | null; rules: SimulatedRule[] };

/** Ids given to an inline campaign and its rules, which have none: they appear in results and gift attributes. */
export const INLINE_CAMPAIGN_ID = 'cmp_simulated';
export const inlineRuleId = (index: number): string => `rul_simulated_${index}`;

/**
 * An inline campaign (the import entry shape) as import would store it: SPEC "Plan-gated
 * features are silently stripped", so the simulation shows what the shop would really get.
 *
 * @example
 *   inlineCampaign(body.campaign, 'free').rules[0]?.id; // 'rul_simulated_0'
 */
export function inlineCampaign(campaign: ImportCampaign, plan: Plan): SimulatedCampaign {
  return {
    id: INLINE_CAMPAIGN_ID,
    startAt: campaign.startAt,
    endAt: campaign.endAt,
    rules: campaign.rules.map((rule, index) => ({
      id: inlineRuleId(index),
      name: rule.name,
      enabled: rule.enabled,
      conditionTree: stripDisallowedLeaves(rule.conditionTree, plan).tree,
      giftConfig: rule.giftConfig,
      options: rule.options,
    })),
  };
}

/**
 * The payload for `campaigns`, as GET /rules would serve it were they live: each rule
 * carries its campaign's schedule window, thresholds are in the shop's currency, and the
 * shop's resolved settings apply (useDiscountedPrices). Disabled rules stay in, so the
 * simulator reports them as skipped rather than silently leaving them out.
 *
 * @example
 *   compileRules(simulationPayload([campaign], [], shop));
 */
export function simulationPayload(
  campaigns: readonly SimulatedCampaign[],
  experiments: readonly EngineExperiment[],
  shop: { currency: string; settings: StoredShopSettings },
): RulesPayloadInput {
  return {
    rules: campaigns.flatMap((campaign) =>
      campaign.rules.map((rule) => ({
        ...rule,
        campaignId: campaign.id,
        startAt: campaign.startAt?.toISOString() ?? null,
        endAt: campaign.endAt?.toISOString() ?? null,
      })),
    ),
    experiments: [...experiments],
    shopSettings: resolveShopSettings(shop.settings),
    baseCurrency: shop.currency,
  };
}
