/** Shared by the event, order, redemption and analytics tests: campaigns with rules, and orders. */
import { campaign, rule } from '../campaigns/fixtures.ts';
import type { TestApp } from '../support/test-app.ts';

export type GiftCampaign = { campaignId: string; ruleIds: string[] };

/** Creates a campaign with `rules` rules through the admin mount (no rate limit). */
export async function createGiftCampaign(t: TestApp, shopId: string, rules = 1): Promise<GiftCampaign> {
  const body = { campaigns: [campaign('Gift promo', { rules: Array.from({ length: rules }, (_, i) => rule(`Rule ${i}`)) })] };
  const imported = await t.admin({ method: 'POST', url: `/admin/v1/shops/${shopId}/campaigns/import`, payload: body });
  if (imported.statusCode !== 200) throw new Error(`import failed: ${imported.body}`);
  const [campaignId] = (imported.json() as { campaignIds: string[] }).campaignIds;
  if (!campaignId) throw new Error('no campaign id');
  const read = await t.admin({ method: 'GET', url: `/admin/v1/shops/${shopId}/campaigns/${campaignId}` });
  const ruleIds = (read.json() as { campaign: { rules: Array<{ id: string }> } }).campaign.rules.map((r) => r.id);
  return { campaignId, ruleIds };
}

let orderCounter = 0;

type LineInput = { quantity?: number; price?: number; gift?: { campaignId: string; ruleId?: string } };

/** An Order of CONTRACT "Platform orders"; gift lines carry the SPEC attributes. */
export function order(input: {
  id?: string;
  customerId?: string | null;
  completedAt?: string;
  currency?: string;
  total?: number;
  lines?: LineInput[];
}) {
  orderCounter += 1;
  const lines = (input.lines ?? [{}]).map((line, index) => ({
    productId: `gid://shopify/Product/${100 + index}`,
    variantId: `gid://shopify/ProductVariant/${200 + index}`,
    quantity: line.quantity ?? 1,
    price: line.price ?? (line.gift ? 0 : 2500),
    ...(line.gift
      ? {
          attributes: {
            _svc_campaign_id: line.gift.campaignId,
            ...(line.gift.ruleId === undefined ? {} : { _svc_rule_id: line.gift.ruleId }),
            _svc_auto: 'true',
          },
        }
      : {}),
  }));
  return {
    id: input.id ?? `ord-${process.pid}-${orderCounter}`,
    ...(input.customerId === undefined ? {} : { customerId: input.customerId }),
    completedAt: input.completedAt ?? '2026-01-15T12:00:00.000Z',
    currency: input.currency ?? 'USD',
    total: input.total ?? 2500,
    lines,
  };
}

/** POSTs an order through the admin route. */
export function postOrder(t: TestApp, shopId: string, body: unknown) {
  return t.admin({ method: 'POST', url: `/admin/v1/shops/${shopId}/orders`, payload: body as Record<string, unknown> });
}
