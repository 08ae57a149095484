/**
 * The rules payload of SPEC "Rules payload", built from what storage holds for one shop at
 * one instant. Pure: the database read is in load-source.ts, caching in rules-cache.ts.
 */
import { PLANS, stripDisallowedLeaves } from '@gcrs/engine';
import type { Budget, DeliveredWidgets, EngineExperiment, ResolvedShopSettings, WidgetSettings } from '@gcrs/engine';
import { spentBudgets } from '../budgets/spent.ts';
import type { BudgetUsageIndex } from '../budgets/spent.ts';
import { presentRule } from '../campaigns/present.ts';
import type { RuleRecord } from '../campaigns/store.ts';
import type { Plan } from '../shops/plans.ts';
import { resolveShopSettings } from '../shops/settings.ts';
import type { StoredShopSettings } from '../shops/settings.ts';
import { offeredRule } from './gift-stock.ts';
import { isWithinWindow, segmentAround } from './schedule-window.ts';
import type { PayloadCollection } from './storefront-variant.ts';
import type { ScheduleWindow, Segment } from './schedule-window.ts';

/** Everything the payload is made of, read in one snapshot at `rulesVersion`. */
export type RulesSource = {
  shop: {
    id: string;
    plan: Plan;
    currency: string;
    /** IANA zone budget windows are counted in. */
    timezone: string;
    settings: StoredShopSettings;
    rulesVersion: number;
    widgets: WidgetSettings;
  };
  /** The live campaigns (enabled, not draft), oldest first, with their budget. */
  campaigns: Array<{ id: string; budget: Budget | null } & ScheduleWindow>;
  /** The enabled rules of those campaigns, in campaign order, then rule position. */
  rules: RuleRecord[];
  /** The running experiments of those campaigns. */
  experiments: EngineExperiment[];
  /** The catalog collections those rules name (`line.in_collection`), for the storefront variant. */
  collections: PayloadCollection[];
  /** Numeric ids of those rules' gift variants that the catalog has sold out (catalog/stock.ts). */
  soldOutGifts: ReadonlySet<string>;
  /** Numeric id → shopper-facing name of those gift variants the catalog knows, for the storefront variant. */
  giftTitles: ReadonlyMap<string, string>;
  /** Numeric id → price (minor units of the shop's currency) of those gift variants the catalog has one of, for the storefront variant. */
  giftPrices: ReadonlyMap<string, number>;
  /** Budget counters of those rules and campaigns for the windows current when it was read (budgets/spent.ts). */
  budgetUsage: BudgetUsageIndex;
};

type PresentedRule = ReturnType<typeof presentRule>;
export type PayloadRule = Omit<PresentedRule, 'id'> & { id: string; campaignId: string; startAt: string | null; endAt: string | null };

/** The payload without `debugAllowed`, which depends on who asks (see rules-cache.ts). */
export type RulesPayloadBody = {
  rules: PayloadRule[];
  experiments?: EngineExperiment[];
  shopSettings: ResolvedShopSettings;
  widgets: DeliveredWidgets;
  baseCurrency: string;
};

/**
 * SPEC "PUT /widgets": customCode is stored as sent and stripped at delivery on a plan whose
 * record (the engine's plan registry) lacks `customCode`: every plan below Scale.
 *
 * @example
 *   deliveredWidgets(settings, 'pro').customCode; // undefined
 */
export function deliveredWidgets(widgets: WidgetSettings, plan: Plan): DeliveredWidgets {
  if (PLANS[plan].customCode) return widgets;
  const { customCode: _stripped, ...rest } = widgets;
  return rest;
}

/**
 * The payload as of `at` (epoch ms) and the segment of time over which it stays exact.
 * A live campaign whose window does not contain `at` contributes no rules and no
 * experiment; `experiments` is left out when none runs (SPEC: "omitted (not empty)"). Rules
 * are offered as the catalog's stock allows (gift-stock.ts); a campaign whose every gift is
 * sold out contributes no rules and no experiment either, and so does a campaign whose
 * budget is spent; a rule whose own budget is spent is left out like a sold-out one
 * (budgets/spent.ts). The segment ends when a spent windowed budget re-opens.
 *
 * @example
 *   const { payload, segment } = buildRulesPayload(source, Date.now());
 */
export function buildRulesPayload(source: RulesSource, at: number): { payload: RulesPayloadBody; segment: Segment } {
  const current = new Map<string, ScheduleWindow>();
  for (const campaign of source.campaigns) if (isWithinWindow(campaign, at)) current.set(campaign.id, campaign);

  const spent = spentBudgets(
    { rules: source.rules, campaigns: source.campaigns, usage: source.budgetUsage, timeZone: source.shop.timezone },
    at,
  );
  const rules: PayloadRule[] = [];
  // Campaigns whose every current rule is left out for stock or budget: their experiments go too.
  const soldOutCampaigns = new Set<string>();
  const offeringCampaigns = new Set<string>();
  for (const stored of source.rules) {
    const window = current.get(stored.campaignId);
    if (!window) continue;
    const spentRule = spent.campaigns.has(stored.campaignId) || spent.rules.has(stored.id);
    const rule = spentRule ? undefined : offeredRule(stored, source.soldOutGifts);
    if (rule === undefined) {
      soldOutCampaigns.add(stored.campaignId);
      continue;
    }
    offeringCampaigns.add(rule.campaignId);
    const { id, ...rest } = presentRule(rule);
    rules.push({
      id,
      campaignId: rule.campaignId,
      ...rest,
      // CONTRACT part three: after a downgrade the leaves the plan lacks stay stored and are
      // stripped here (a rule saved under the shop's plan comes back as the same object).
      conditionTree: stripDisallowedLeaves(rest.conditionTree, source.shop.plan).tree,
      // The engine skips a rule outside these, so a storefront holding the payload for its
      // max-age still stops a campaign exactly at its end.
      startAt: window.startAt?.toISOString() ?? null,
      endAt: window.endAt?.toISOString() ?? null,
    });
  }
  const experiments = source.experiments.filter(
    (experiment) =>
      current.has(experiment.campaignId) && (offeringCampaigns.has(experiment.campaignId) || !soldOutCampaigns.has(experiment.campaignId)),
  );

  const payload: RulesPayloadBody = {
    rules,
    ...(experiments.length > 0 ? { experiments } : {}),
    shopSettings: resolveShopSettings(source.shop.settings),
    widgets: deliveredWidgets(source.shop.widgets, source.shop.plan),
    baseCurrency: source.shop.currency,
  };
  const schedule = segmentAround(source.campaigns, at);
  const segment = { from: Math.max(schedule.from, spent.segment.from), until: Math.min(schedule.until, spent.segment.until) };
  return { payload, segment };
}
