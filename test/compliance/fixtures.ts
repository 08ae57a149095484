/**
 * The compliance webhooks as the platform sends them, and a shop with a row in every table
 * keyed by shop (for shop/redact's "everything goes" and the cross-shop checks).
 */
import { randomUUID } from 'node:crypto';
import { eq, getTableName, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { shopKeyedTables } from '../../src/compliance/shop-redact.ts';
import {
  adminSessions,
  appSubscriptions,
  catalogImports,
  checkoutConfigs,
  discountSyncs,
  giftBudgetUsage,
  orderRepairs,
  outbox,
  outboxAttempts,
} from '../../src/db/schema.ts';
import { markConnectionBroken } from '../../src/platform/connections.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { createGiftCampaign, order, postOrder } from '../orders/fixtures.ts';
import type { GiftCampaign } from '../orders/fixtures.ts';
import { deliver, productPayload } from '../platform-webhooks/fixtures.ts';
import { refundText } from '../give-backs/fixtures.ts';

export { SECRET, deliver, domainOf } from '../platform-webhooks/fixtures.ts';

/** The platform's numeric shop id; the service does not key by it. */
const PLATFORM_SHOP_ID = 954889;

export function dataRequestPayload(domain: string, input: { customerId: string; dataRequestId: string; orders?: string[] }): string {
  return JSON.stringify({
    shop_id: PLATFORM_SHOP_ID,
    shop_domain: domain,
    orders_requested: [0],
    customer: { id: 0, email: 'john@example.com', phone: '555-625-1199' },
    data_request: { id: 0 },
  })
    .replace('"orders_requested":[0]', `"orders_requested":[${(input.orders ?? []).join(',')}]`)
    .replace('"customer":{"id":0', `"customer":{"id":${input.customerId}`)
    .replace('"data_request":{"id":0}', `"data_request":{"id":${input.dataRequestId}}`);
}

export function customerRedactPayload(domain: string, input: { customerId: string; orders?: string[] }): string {
  return JSON.stringify({ shop_id: PLATFORM_SHOP_ID, shop_domain: domain, customer: { id: 0, email: 'john@example.com', phone: '555-625-1199' }, orders_to_redact: [0] })
    .replace('"customer":{"id":0', `"customer":{"id":${input.customerId}`)
    .replace('"orders_to_redact":[0]', `"orders_to_redact":[${(input.orders ?? []).join(',')}]`);
}

export const shopRedactPayload = (domain: string) => JSON.stringify({ shop_id: PLATFORM_SHOP_ID, shop_domain: domain });

export const sendDataRequest = (t: TestApp, domain: string, input: { customerId: string; dataRequestId: string; orders?: string[] }, webhookId?: string) =>
  deliver(t, dataRequestPayload(domain, input), { topic: 'customers/data_request', domain, ...(webhookId ? { webhookId } : {}) });

export const sendCustomerRedact = (t: TestApp, domain: string, input: { customerId: string; orders?: string[] }, webhookId?: string) =>
  deliver(t, customerRedactPayload(domain, input), { topic: 'customers/redact', domain, ...(webhookId ? { webhookId } : {}) });

export const sendShopRedact = (t: TestApp, domain: string, webhookId?: string): Promise<LightMyRequestResponse> =>
  deliver(t, shopRedactPayload(domain), { topic: 'shop/redact', domain, ...(webhookId ? { webhookId } : {}) });

/** Rows of each shop-keyed table (and `shops`) that belong to `shopId`, by table name. */
export async function rowsByTable(t: TestApp, shopId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of shopKeyedTables()) {
    const result = await t.ctx.db.execute(sql`select count(*)::int as n from ${table} where shop_id = ${shopId}`);
    counts[getTableName(table)] = (result as unknown as { rows: Array<{ n: number }> }).rows[0]?.n ?? -1;
  }
  const shopRow = await t.ctx.db.execute(sql`select count(*)::int as n from shops where id = ${shopId}`);
  counts.shops = (shopRow as unknown as { rows: Array<{ n: number }> }).rows[0]?.n ?? -1;
  return counts;
}

const ok = async (res: Promise<LightMyRequestResponse> | LightMyRequestResponse, status = 200): Promise<LightMyRequestResponse> => {
  const answer = await res;
  if (answer.statusCode !== status) throw new Error(`seed step answered ${answer.statusCode}: ${answer.body.slice(0, 300)}`);
  return answer;
};

export type SeededShop = { promo: GiftCampaign; orderIds: string[] };

/**
 * Gives the shop a row in every table keyed by shop, through the app wherever a route or a
 * webhook writes it, directly where only the dispatcher would (attempts, sync records).
 * `customerId` places two orders with gift lines, storefront events and a data request.
 */
export async function seedEveryTable(t: TestApp, shop: TestShop, domain: string, customerId: string): Promise<SeededShop> {
  const promo = await createGiftCampaign(t, shop.id, 2);
  const base = `/admin/v1/shops/${shop.id}`;
  await ok(t.admin({ method: 'POST', url: `${base}/campaigns/${promo.campaignId}/enable?force=1` }));
  await ok(
    t.admin({
      method: 'POST',
      url: `${base}/campaigns/${promo.campaignId}/experiments`,
      payload: { primaryMetric: 'conversion_rate', variants: promo.ruleIds.map((ruleId, i) => ({ name: `V${i}`, ruleId, weight: 1 })) },
    }),
    201,
  );
  await ok(
    t.admin({
      method: 'POST',
      url: `${base}/catalog`,
      payload: {
        products: [{ id: 'gid://shopify/Product/1', title: 'Mug', status: 'active', variants: [{ id: 'gid://shopify/ProductVariant/11', title: 'Mug', inventoryQuantity: 5, inventoryPolicy: 'DENY' }] }],
        collections: [{ id: 'gid://shopify/Collection/1', handle: 'mugs', productIds: ['gid://shopify/Product/1'] }],
      },
    }),
  );
  await ok(deliver(t, productPayload({ id: 2, variants: [{ id: 21, inventoryItemId: 2100 }] }), { topic: 'products/create', domain }));
  await ok(deliver(t, { inventory_item_id: 2100, location_id: 7, available: 3 }, { topic: 'inventory_levels/update', domain }));
  await ok(t.admin({ method: 'POST', url: `${base}/storefront-tokens`, payload: { allowedOrigins: ['https://shop.example'] } }), 201);
  await ok(t.admin({ method: 'POST', url: `${base}/webhook-endpoints`, payload: { url: 'https://hooks.example.com/gifts' } }), 201);
  await ok(t.admin({ method: 'POST', url: `${base}/login-links` }), 201);
  await ok(t.admin({ method: 'PUT', url: `${base}/platform-connection`, payload: { accessToken: `shpat_${'a'.repeat(32)}` } }));
  // Uninstalled: the platform connection is broken, as shop/redact finds it (48 hours after).
  await markConnectionBroken(t.ctx.db, shop.id, 'uninstalled');

  const [ruleId] = promo.ruleIds;
  const gift = { campaignId: promo.campaignId, ...(ruleId ? { ruleId } : {}) };
  const orderIds = [`${Date.now()}1`, `${Date.now()}2`];
  for (const id of orderIds) {
    await ok(postOrder(t, shop.id, order({ id, customerId, lines: [{}, { gift }] })));
  }
  await ok(postOrder(t, shop.id, order({ customerId: null })));
  // A guest's gift order, refunded: a give-back record (order_give_backs); the customer's counts stay.
  const refunded = `${Date.now()}3`;
  await ok(postOrder(t, shop.id, order({ id: refunded, customerId: null, lines: [{}, { gift }] })));
  const refund = refundText({ id: `${Date.now()}9`, orderId: refunded, lines: [{ quantity: 1, gift: { campaignId: promo.campaignId, ruleId: ruleId ?? '' } }] });
  await ok(deliver(t, refund, { topic: 'refunds/create', domain }));
  await ok(
    t.api(shop, {
      method: 'POST',
      url: '/api/v1/events',
      payload: { customerId, visitorId: 'vis_1', sessionId: 'ses_1', events: [{ type: 'gift_added', campaignId: promo.campaignId, ruleId, variantId: 'gid://shopify/ProductVariant/11' }] },
    }),
  );
  await ok(sendDataRequest(t, domain, { customerId, dataRequestId: String(Date.now()) }));

  // What only the dispatcher and the sync write.
  const [someOutbox] = await t.ctx.db.select({ id: outbox.id }).from(outbox).where(eq(outbox.shopId, shop.id)).limit(1);
  if (!someOutbox) throw new Error('no outbox row was queued');
  await t.ctx.db.insert(outboxAttempts).values({ shopId: shop.id, outboxId: someOutbox.id, attempt: 1, statusCode: 500, durationMs: 3 }).onConflictDoNothing();
  await t.ctx.db.insert(discountSyncs).values({ shopId: shop.id, campaignId: promo.campaignId, active: true }).onConflictDoNothing();
  await t.ctx.db.insert(checkoutConfigs).values({ shopId: shop.id, config: { v: 1, c: 'USD', p: [], m: [], r: [] }, variables: { tags: [], collectionIds: [] }, bytes: 2, target: 'recorded', writtenAt: new Date() }).onConflictDoNothing();
  await t.ctx.db.insert(giftBudgetUsage).values({ shopId: shop.id, scope: 'campaign', scopeId: promo.campaignId, windowStart: '1970-01-01', used: 1 }).onConflictDoNothing();
  await t.ctx.db.insert(adminSessions).values({ shopId: shop.id, tokenHash: randomUUID(), expiresAt: new Date(Date.now() + 3_600_000) });
  await t.ctx.db.insert(catalogImports).values({ shopId: shop.id, id: `imp_${randomUUID()}`, status: 'done', startedAt: new Date() }).onConflictDoNothing();
  await t.ctx.db.insert(appSubscriptions).values({ shopId: shop.id, id: `gid://shopify/AppSubscription/${randomUUID()}`, plan: 'growth', status: 'CANCELLED' });
  const repair = { shopId: shop.id, orderId: orderIds[0] ?? '', ruleId: ruleId ?? '', campaignId: promo.campaignId, variantId: 'gid://shopify/ProductVariant/11', quantity: 1, status: 'repaired' };
  await t.ctx.db.insert(orderRepairs).values(repair).onConflictDoNothing();
  return { promo, orderIds };
}
