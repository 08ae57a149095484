/**
 * Which gift units an order carries and a refund returns, per (campaign, rule): the arithmetic of
 * give-back.ts, pure. Only this shop's campaigns count (as at intake), and a gift a repair added
 * counts as the line intake would have recorded.
 */
import { GIFT_ATTRIBUTE, numericIdOf } from '@gcrs/engine';
import type { GiveBackRequest } from './payloads.ts';

export type GiftKey = { campaignId: string; ruleId: string | null };
export const keyOf = (campaignId: string, ruleId: string | null) => `${campaignId}\u0000${ruleId ?? ''}`;
export const sorted = <T>(values: Iterable<T>, key: (value: T) => string): T[] =>
  [...values].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));

/** Gift units per (campaign, rule) of lines, counting only this shop's campaigns (as intake does). */
export function giftUnitsOf(lines: ReadonlyArray<{ quantity: number; attributes?: Record<string, string> | undefined }>, known: ReadonlySet<string>) {
  const units = new Map<string, GiftKey & { units: number }>();
  for (const line of lines) {
    const campaignId = line.attributes?.[GIFT_ATTRIBUTE.campaignId]?.trim();
    if (!campaignId || !known.has(campaignId) || line.quantity <= 0) continue;
    const ruleId = line.attributes?.[GIFT_ATTRIBUTE.ruleId]?.trim() || null;
    const entry = units.get(keyOf(campaignId, ruleId)) ?? { campaignId, ruleId, units: 0 };
    entry.units += line.quantity;
    units.set(keyOf(campaignId, ruleId), entry);
  }
  return units;
}

export type StoredLine = { quantity: number; attributes?: Record<string, string> };
/** A committed repair's gift; `lineItemId` is the order line its edit added (null for repairs committed before it was recorded). */
export type RepairedGift = { campaignId: string; ruleId: string; variant: string; quantity: number; lineItemId: string | null };

/** Gift units of one (campaign, rule). */
export type Given = GiftKey & { units: number };

/** A repaired gift as the order line intake would have recorded (its `_svc_*` properties). */
export const repairedLine = (row: RepairedGift): StoredLine => ({
  quantity: row.quantity,
  attributes: { [GIFT_ATTRIBUTE.campaignId]: row.campaignId, [GIFT_ATTRIBUTE.ruleId]: row.ruleId },
});

const GIFT_PREFIX = '_svc_';

/**
 * A refund's gift units per (campaign, rule): by the properties of the lines it refunds; a line a
 * repair added (its `line_item_id`) as that repaired gift, however it is discounted; and, for a
 * repair committed before line ids were recorded, a line with no `_svc_*` property, fully
 * discounted, of a variant the order's repairs added, as that repaired gift (rules in id order,
 * each up to what the order still carries of it). A paid line of the gift's variant is not discounted in full, so it is never taken for the gift.
 */
export function refundedUnits(
  request: Extract<GiveBackRequest, { kind: 'refund' }>,
  known: ReadonlySet<string>,
  repaired: readonly RepairedGift[],
  left: (key: string) => number,
): Map<string, number> {
  const units = new Map([...giftUnitsOf(request.lines, known)].map(([key, entry]) => [key, entry.units]));
  const add = (row: RepairedGift, wanted: number): number => {
    const key = keyOf(row.campaignId, row.ruleId);
    const take = Math.min(wanted, Math.max(0, left(key) - (units.get(key) ?? 0)));
    if (take > 0) units.set(key, (units.get(key) ?? 0) + take);
    return take;
  };
  const addedLines = new Set(repaired.flatMap((row) => (row.lineItemId === null ? [] : [row.lineItemId])));
  for (const line of request.lines) {
    if (line.quantity <= 0) continue;
    // The line the repair's edit added, by its id: whatever the platform's discount made of it.
    const added = repaired.find((row) => row.lineItemId !== null && row.lineItemId === line.lineItemId && known.has(row.campaignId));
    if (added) {
      add(added, line.quantity);
      continue;
    }
    if (!line.fullyDiscounted || line.variantId === null || addedLines.has(line.lineItemId)) continue;
    if (Object.keys(line.attributes).some((name) => name.startsWith(GIFT_PREFIX))) continue;
    let rest = line.quantity;
    for (const row of repaired) {
      if (rest === 0) break;
      // A repair whose added line is known is refunded by that line's id only.
      if (row.lineItemId !== null || row.variant !== line.variantId || !known.has(row.campaignId)) continue;
      rest -= add(row, rest);
    }
  }
  return units;
}

/**
 * Whether a refund takes back the gift of a repair that has not ended (repairs/cancel.ts): the
 * edit may have put it on the order (`editing`, `interrupted`), and the refund returns a fully
 * discounted line of its variant that carries no `_svc_*` property, as a repaired gift looks.
 */
export function refundsOpenRepair(request: GiveBackRequest, repair: { status: string; variantId: string }): boolean {
  if (request.kind === 'cancel') return true;
  if (repair.status !== 'editing' && repair.status !== 'interrupted') return false;
  const variant = numericIdOf(repair.variantId) ?? repair.variantId;
  return request.lines.some(
    (line) => line.quantity > 0 && line.fullyDiscounted && line.variantId === variant && !Object.keys(line.attributes).some((name) => name.startsWith(GIFT_PREFIX)),
  );
}
