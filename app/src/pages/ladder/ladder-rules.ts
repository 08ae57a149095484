/**
 * A tier ladder ("spend 50 → mug, 100 → mug + tote, 150 → choose one of three") and the rules
 * it is stored as (docs/promotions.md "Tier ladders"). Each tier's rules share one condition,
 * `AND(subtotal ≥ its threshold, NOT(subtotal ≥ the next tier's threshold))` (the top tier
 * without the NOT), so exactly the highest tier reached gives, whatever the shop's stacking and
 * without touching other campaigns. A rule adds one gift (`gifts[0]`, the planner's rule), so a
 * tier that adds several gifts is one rule per gift; a "choose one of" tier is one
 * `customer_choice` rule offering them all. Pure: the ladder editor and its property test use it.
 */

/** A `cart.subtotal_gte` threshold: minor units of the shop's currency, optional per-currency amounts. */
export type LadderThreshold = { value: number; currencyOverrides?: Record<string, number> };
export type LadderGift = { variantId: string; quantity: number };

/**
 * One step of the ladder. `ruleIds` are its rules' ids, in the order it writes them (one per gift,
 * or one for a choice), kept on save so budgets, limits and analytics stay with them.
 */
export type LadderTier = {
  ruleIds?: string[];
  name: string;
  threshold: LadderThreshold;
  gifts: LadderGift[];
  /** The shopper chooses one of `gifts` (`customer_choice`); else every gift is added. */
  choice: boolean;
};

/** The rule fields a ladder reads and writes: the campaign body's rule without anything else. */
export type LadderRule = {
  id?: string;
  name: string;
  enabled: boolean;
  conditionTree: unknown;
  giftConfig: { type: 'fixed'; gifts: LadderGift[]; fallbackOnOOS: boolean };
  options: { actionType: 'auto_add' | 'customer_choice'; discountMethod: 'automatic'; discountType: 'percentage'; discountValue: number; discountTitle: string };
};

const leaf = ({ value, currencyOverrides }: LadderThreshold) => ({ type: 'cart.subtotal_gte' as const, value, ...(currencyOverrides ? { currencyOverrides } : {}) });

const GIFT_SUFFIX = (index: number) => ` · gift ${index + 1}`;

/**
 * The rules of a ladder, tier by tier. Thresholds must rise strictly ({@link ladderProblem}).
 *
 * @example ladderToRules([{ name: 'Mug', threshold: { value: 5000 }, gifts: [mug], choice: false }])[0].conditionTree
 * // { type: 'AND', children: [{ type: 'cart.subtotal_gte', value: 5000 }] }
 */
export function ladderToRules(tiers: readonly LadderTier[]): LadderRule[] {
  return tiers.flatMap((tier, index) => {
    const next = tiers[index + 1];
    const children: unknown[] = [leaf(tier.threshold)];
    if (next) children.push({ type: 'NOT', child: leaf(next.threshold) });
    const sets = tier.choice ? [tier.gifts] : tier.gifts.map((gift) => [gift]);
    return sets.map((gifts, at): LadderRule => {
      const id = tier.ruleIds?.[at];
      return {
        ...(id === undefined ? {} : { id }),
        name: sets.length > 1 ? tier.name + GIFT_SUFFIX(at) : tier.name,
        enabled: true,
        conditionTree: { type: 'AND', children },
        giftConfig: { type: 'fixed', gifts: gifts.map(({ variantId, quantity }) => ({ variantId, quantity })), fallbackOnOOS: false },
        options: { actionType: tier.choice ? 'customer_choice' : 'auto_add', discountMethod: 'automatic', discountType: 'percentage', discountValue: 100, discountTitle: 'Free gift' },
      };
    });
  });
}

/** JSON with sorted keys: two rules are the same when they say the same, in any key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The first child of an AND tree when it is a plain subtotal threshold. */
function thresholdOf(tree: unknown): LadderThreshold | undefined {
  const node = tree as { type?: unknown; children?: unknown } | null;
  if (node?.type !== 'AND' || !Array.isArray(node.children)) return undefined;
  const first = node.children[0] as { type?: unknown; value?: unknown; currencyOverrides?: unknown } | undefined;
  if (first?.type !== 'cart.subtotal_gte' || typeof first.value !== 'number') return undefined;
  const overrides = first.currencyOverrides as Record<string, number> | undefined;
  return { value: first.value, ...(overrides ? { currencyOverrides: overrides } : {}) };
}

type StoredRule = { id?: string; name: string; enabled: boolean; conditionTree: unknown; giftConfig: { gifts: LadderGift[] }; options: { actionType?: string } };

/**
 * The ladder a campaign's rules are, or undefined when they are anything else: the rules must be
 * exactly what {@link ladderToRules} writes for the ladder read from them (every option, every
 * leaf, every name), so saving the ladder back loses nothing the merchant set elsewhere.
 */
export function rulesToLadder(rules: readonly StoredRule[]): LadderTier[] | undefined {
  if (rules.length === 0) return undefined;
  const tiers: LadderTier[] = [];
  let last: { value: number; tier: LadderTier } | undefined;
  for (const rule of rules) {
    const threshold = thresholdOf(rule.conditionTree);
    if (!threshold || !Array.isArray(rule.giftConfig?.gifts)) return undefined;
    const gifts = rule.giftConfig.gifts.map(({ variantId, quantity }) => ({ variantId, quantity }));
    const ids = rule.id === undefined ? [] : [rule.id];
    if (last?.value === threshold.value) {
      // Another gift of the same tier (its rules share their condition; the comparison below checks the rest).
      last.tier.gifts.push(...gifts);
      if (ids.length > 0) last.tier.ruleIds = [...(last.tier.ruleIds ?? []), ...ids];
      continue;
    }
    const name = rule.name.endsWith(GIFT_SUFFIX(0)) ? rule.name.slice(0, -GIFT_SUFFIX(0).length) : rule.name;
    const tier: LadderTier = { ...(ids.length > 0 ? { ruleIds: ids } : {}), name, threshold, gifts, choice: rule.options?.actionType === 'customer_choice' };
    tiers.push(tier);
    last = { value: threshold.value, tier };
  }
  if (ladderProblem(tiers) !== undefined) return undefined;
  const pick = ({ id, name, enabled, conditionTree, giftConfig, options }: StoredRule) => ({ id, name, enabled, conditionTree, giftConfig, options });
  return canonical(rules.map(pick)) === canonical(ladderToRules(tiers)) ? tiers : undefined;
}

/** What stops a ladder from being saved, in the merchant's words; undefined when nothing does. */
export function ladderProblem(tiers: readonly LadderTier[]): string | undefined {
  // One tier is a plain "spend X, get Y" campaign (the campaign editor's first rule is one): not a ladder.
  if (tiers.length < 2) return 'A ladder has at least two tiers: add one, or make a single gift with New campaign.';
  for (const [index, tier] of tiers.entries()) {
    if (tier.gifts.length === 0) return `Tier ${index + 1} has no gift.`;
    if (!Number.isInteger(tier.threshold.value) || tier.threshold.value < 0) return `Tier ${index + 1}: enter the amount to spend.`;
    const before = tiers[index - 1];
    if (!before) continue;
    if (!(tier.threshold.value > before.threshold.value)) return `Tier ${index + 1} must ask for more than tier ${index} does.`;
    for (const [code, amount] of Object.entries(tier.threshold.currencyOverrides ?? {})) {
      const previous = before.threshold.currencyOverrides?.[code];
      if (previous !== undefined && !(amount > previous)) return `Tier ${index + 1} must ask for more ${code} than tier ${index} does.`;
    }
  }
  return undefined;
}
