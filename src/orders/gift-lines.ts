/**
 * What an order's gift lines say, before any storage: a line is a gift line when it carries
 * `_svc_campaign_id` (SPEC: that attribute is what the checkout discount keys on).
 */
import { GIFT_ATTRIBUTE } from '@gcrs/engine';
import type { OrderLine } from './schema.ts';

export type GiftSummary = {
  /** Gift quantity per campaign id. */
  giftsByCampaign: Map<string, number>;
  /** Rule id → campaign id, for gift lines that carry `_svc_rule_id` too. */
  rules: Map<string, string>;
  /** Number of gift lines. */
  giftLines: number;
};

/**
 * Sums an order's gift lines by campaign, and lists the (rule, campaign) pairs they name.
 * `isKnown` decides which campaign ids count (those of the order's shop).
 *
 * @example
 *   summarizeGiftLines([{ quantity: 1, attributes: { _svc_campaign_id: 'cmp_1', _svc_rule_id: 'rul_1' } }], () => true);
 *   // { giftsByCampaign: Map { 'cmp_1' => 1 }, rules: Map { 'rul_1' => 'cmp_1' }, giftLines: 1 }
 */
export function summarizeGiftLines(
  lines: ReadonlyArray<Pick<OrderLine, 'quantity' | 'attributes'>>,
  isKnown: (campaignId: string) => boolean,
): GiftSummary {
  const giftsByCampaign = new Map<string, number>();
  const rules = new Map<string, string>();
  let giftLines = 0;
  for (const line of lines) {
    const campaignId = line.attributes?.[GIFT_ATTRIBUTE.campaignId]?.trim();
    if (!campaignId || !isKnown(campaignId)) continue;
    giftLines += 1;
    giftsByCampaign.set(campaignId, (giftsByCampaign.get(campaignId) ?? 0) + line.quantity);
    const ruleId = line.attributes?.[GIFT_ATTRIBUTE.ruleId]?.trim();
    if (ruleId) rules.set(ruleId, campaignId);
  }
  return { giftsByCampaign, rules, giftLines };
}

/** Every campaign and rule id an order's lines name, to look them up in one go. */
export function referencedIds(lines: ReadonlyArray<Pick<OrderLine, 'attributes'>>): { campaignIds: string[]; ruleIds: string[] } {
  const campaignIds = new Set<string>();
  const ruleIds = new Set<string>();
  for (const line of lines) {
    const campaignId = line.attributes?.[GIFT_ATTRIBUTE.campaignId]?.trim();
    if (!campaignId) continue;
    campaignIds.add(campaignId);
    const ruleId = line.attributes?.[GIFT_ATTRIBUTE.ruleId]?.trim();
    if (ruleId) ruleIds.add(ruleId);
  }
  return { campaignIds: [...campaignIds], ruleIds: [...ruleIds] };
}
