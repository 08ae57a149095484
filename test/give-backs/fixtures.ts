/**
 * The platform's `refunds/create` and `orders/cancelled` payloads as its REST webhooks send
 * them (the documented samples' shape: 64-bit ids as bare numbers, a refund line carrying its
 * order line with `properties`), and a shop with a budgeted gift rule to refund against.
 */
import { liveCampaign, rule } from '../evaluate/helpers.ts';
import { importCampaigns, readCampaign } from '../rules/helpers.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

export type GiftRef = { campaignId: string; ruleId: string };

/** The `_svc_*` properties intake and refunds recognize a gift line by. */
export const giftProperties = (gift: GiftRef) => [
  { name: '_svc_campaign_id', value: gift.campaignId },
  { name: '_svc_rule_id', value: gift.ruleId },
  { name: '_svc_auto', value: 'true' },
];

type RefundLine = { lineItemId?: number; quantity: number; gift?: GiftRef; lineQuantity?: number };

/** A `refunds/create` payload as JSON text; `id` and `order_id` written as bare integers. */
export function refundText(input: { id: string; orderId: string; createdAt?: string; lines: RefundLine[] }): string {
  const payload = {
    id: 0,
    order_id: 1,
    created_at: input.createdAt ?? '2026-01-20T10:00:00-05:00',
    note: 'Customer changed their mind',
    user_id: 548380009,
    processed_at: input.createdAt ?? '2026-01-20T10:00:00-05:00',
    restock: false,
    duties: [],
    total_duties_set: { shop_money: { amount: '0.00', currency_code: 'USD' } },
    additional_fees: [],
    return: null,
    admin_graphql_api_id: `gid://shopify/Refund/${input.id}`,
    refund_line_items: input.lines.map((line, index) => ({
      id: 104689539 + index,
      quantity: line.quantity,
      line_item_id: line.lineItemId ?? 466157049 + index,
      location_id: 40642626,
      restock_type: 'no_restock',
      subtotal: 0,
      total_tax: 0,
      subtotal_set: { shop_money: { amount: '0.00', currency_code: 'USD' } },
      line_item: {
        id: line.lineItemId ?? 466157049 + index,
        variant_id: 39072856,
        title: line.gift ? 'Free mug' : 'IPod Nano - 8gb',
        quantity: line.lineQuantity ?? line.quantity,
        sku: 'IPOD2008GREEN',
        product_id: 632910392,
        price: line.gift ? '0.00' : '199.00',
        properties: line.gift ? giftProperties(line.gift) : [],
        gift_card: false,
      },
    })),
    transactions: [],
    order_adjustments: [],
    refund_shipping_lines: [],
  };
  return JSON.stringify(payload).replace('"id":0', `"id":${input.id}`).replace('"order_id":1', `"order_id":${input.orderId}`);
}

/** An `orders/cancelled` payload (the order with `cancelled_at`) as JSON text. */
export function cancelledText(input: { orderId: string; cancelledAt?: string | null }): string {
  const payload = {
    id: 0,
    admin_graphql_api_id: `gid://shopify/Order/${input.orderId}`,
    cancel_reason: 'customer',
    cancelled_at: input.cancelledAt === undefined ? '2026-01-21T09:00:00-05:00' : input.cancelledAt,
    currency: 'USD',
    financial_status: 'refunded',
    total_price: '199.00',
    line_items: [],
  };
  return JSON.stringify(payload).replace('"id":0', `"id":${input.orderId}`);
}

/** A live campaign with one rule of budget `maxGifts` (window total) and one without a budget. */
export async function budgetedCampaign(t: TestApp, shop: TestShop, maxGifts: number, extra: Record<string, unknown> = {}) {
  const tree = { type: 'cart.item_count_gte', value: 1 };
  const base = rule('Capped', tree);
  const capped = { ...base, options: { ...base.options, budget: { maxGifts, window: 'total' }, ...extra } };
  const [campaignId = ''] = await importCampaigns(t, shop, [liveCampaign('Refundable', [capped, rule('Open', tree, { gifts: [904] })])]);
  const [cappedId = '', openId = ''] = (await readCampaign(t, shop, campaignId)).rules.map((r) => r.id);
  return { campaignId, capped: { campaignId, ruleId: cappedId }, open: { campaignId, ruleId: openId } };
}
