/**
 * A world for the repair tests: the app with the stand-in platform (order editing included), a
 * connected shop with a live campaign, and helpers to deliver `orders/paid` and run the jobs.
 */
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { PlatformStandin } from '../../dev/platform/platform.ts';
import { giftBudgetUsage, outbox, redemptions } from '../../src/db/schema.ts';
import { createOutboxDispatcher } from '../../src/outbox/dispatcher.ts';
import { createPlatformJobs } from '../../src/platform-jobs.ts';
import { createShopDiscountPort } from '../../src/platform/shop-discount-port.ts';
import { liveCampaign, variant } from '../evaluate/helpers.ts';
import { deliver, domainOf, ordersPaidText, SECRET } from '../platform-webhooks/fixtures.ts';
import { grantToken, startTestPlatform } from '../support/platform-standin.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { createWebhookSender } from '../../src/webhooks/sender.ts';

export { SECRET };
let tokens = 0;
/** A fresh access token: the stand-in tells shops apart by their token. */
const newToken = () => `shpat_${(tokens += 1).toString(16).padStart(4, '0')}${'e5'.repeat(14)}`;

/** The app beside a stand-in platform of its own, as every repairs test file starts it; `close` stops both. */
export async function repairWorld(): Promise<{ t: TestApp; platform: PlatformStandin; close(): Promise<void> }> {
  const platform = await startTestPlatform(SECRET);
  const t = await createTestApp({ PLATFORM_APP_SECRET: SECRET, PLATFORM_ADMIN_API_URL: platform.url, PLATFORM_DISCOUNT_FUNCTION_ID: 'fn-gifts-1' });
  return {
    t,
    platform,
    close: async () => {
      await t.close();
      await platform.close();
    },
  };
}

export type Repair = { orderId: string; campaignId: string; ruleId: string; variantId: string; ruleName: string | null; giftTitle: string | null; quantity: number; status: string; detail: string | null; createdAt: string };

const OPTIONS = { discountMethod: 'automatic', discountType: 'percentage', discountValue: 100, discountTitle: 'Free gift' };

/** An auto-add rule: a subtotal of at least 50.00 gives one of variant `gift`. */
export const giftRule = (name: string, gift: number, extra: Record<string, unknown> = {}, options: Record<string, unknown> = {}) => ({
  name,
  enabled: true,
  conditionTree: { type: 'cart.subtotal_gte', value: 5000 },
  giftConfig: { type: 'fixed', gifts: [{ variantId: variant(gift), quantity: 1 }], fallbackOnOOS: false },
  options: { ...OPTIONS, actionType: 'auto_add', ...options },
  ...extra,
});

/** A connected shop on the stand-in with one live campaign of `rules`; returns its ids. */
export async function connectedShop(t: TestApp, platform: PlatformStandin, rules: unknown[], connect = true) {
  const shop = await t.createShop('scale');
  const domain = await domainOf(t, shop.id);
  if (connect) {
    const token = newToken();
    grantToken(platform, domain, token);
    const connected = await t.admin({ method: 'PUT', url: `/admin/v1/shops/${shop.id}/platform-connection`, payload: { accessToken: token } });
    expect(connected.statusCode, connected.body).toBe(200);
  }
  const imported = await t.api(shop, { method: 'POST', url: '/api/v1/campaigns/import', payload: { campaigns: [liveCampaign('Gifts', rules)] } });
  expect(imported.statusCode, imported.body).toBe(200);
  const campaignId = (imported.json() as { campaignIds: string[] }).campaignIds[0] ?? '';
  const read = await t.api(shop, { method: 'GET', url: `/api/v1/campaigns/${campaignId}` });
  const ruleIds = (read.json() as { campaign: { rules: Array<{ id: string; name: string }> } }).campaign.rules.map((r) => r.id);
  return { shop, domain, campaignId, ruleIds };
}

let nextOrder = 7_100_000_000_000_000_000n;

/** A fresh platform order id beyond 2^53. */
export const newOrderId = (): string => String((nextOrder += 1n));

/**
 * Delivers `orders/paid` for an order of one line at `price` (the stand-in holds the order too);
 * `gift` adds a gift line of that rule. Returns the response and the order id.
 */
export async function paidOrder(
  t: TestApp,
  platform: PlatformStandin,
  domain: string,
  input: {
    id?: string;
    price?: string;
    gift?: { campaignId: string; ruleId: string; variantId: number };
    webhookId?: string;
    customerId?: number | null;
    /** More top-level fields of the platform's payload (`shipping_address`, `discount_codes`, `customer` tags…). */
    extra?: Record<string, unknown>;
  } = {},
) {
  const id = input.id ?? newOrderId();
  if (!platform.orderEditing.ordersOf(domain).has(id)) {
    platform.orderEditing.addOrder(domain, { id, lineItems: [{ variantId: 39072856, quantity: 1 }, ...(input.gift ? [{ variantId: input.gift.variantId, quantity: 1 }] : [])] });
  }
  const giftLine = input.gift && {
    variantId: input.gift.variantId,
    productId: input.gift.variantId + 1,
    price: '0.00',
    properties: [
      { name: '_svc_campaign_id', value: input.gift.campaignId },
      { name: '_svc_rule_id', value: input.gift.ruleId },
    ],
  };
  const body = ordersPaidText({
    id,
    totalPrice: input.price ?? '199.00',
    lines: [{ price: input.price ?? '199.00' }, ...(giftLine ? [giftLine] : [])],
    ...(input.customerId === undefined ? {} : { customerId: input.customerId }),
  });
  const full = input.extra === undefined ? body : body.replace('"line_items":', `${JSON.stringify(input.extra).slice(1, -1)},"line_items":`);
  const res = await deliver(t, full, { topic: 'orders/paid', domain, ...(input.webhookId ? { webhookId: input.webhookId } : {}) });
  return { res, id };
}

/** Runs the outbox with platform access for repairs (and discount syncs) until nothing is due. */
export async function runJobs(t: TestApp): Promise<void> {
  const { config } = t.ctx;
  const port = createShopDiscountPort({ db: t.ctx.db, logger: t.ctx.logger, secret: config.platformAppSecret, functionId: config.platformDiscountFunctionId, adminApiUrl: config.platformAdminApiUrl });
  const dispatcher = createOutboxDispatcher({
    db: t.ctx.db,
    logger: t.ctx.logger,
    jobs: createPlatformJobs({ db: t.ctx.db, logger: t.ctx.logger, discountPort: port, orderRepair: { secret: config.platformAppSecret, adminApiUrl: config.platformAdminApiUrl, caches: t.ctx } }),
    webhooks: createWebhookSender(),
    pollMs: 20,
  });
  for (let round = 0; round < 20; round += 1) if ((await dispatcher.runOnce()).claimed === 0) return;
}

/** The shop's repairs as the admin API lists them. */
export async function repairsOf(t: TestApp, shop: TestShop): Promise<Repair[]> {
  const res = await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/repairs` });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { repairs: Repair[] }).repairs;
}

/** The shop's order_repair jobs in the outbox. */
export const repairJobs = (t: TestApp, shop: TestShop) => t.ctx.db.select().from(outbox).where(and(eq(outbox.shopId, shop.id), eq(outbox.kind, 'order_repair')));

/** What a rule of a shop holds: its budget units used and its customers' redemptions (all customers). */
export function repairCounters(app: () => TestApp) {
  return {
    budgetUsed: async (shopId: string, ruleId: string) =>
      (await app().ctx.db.select().from(giftBudgetUsage).where(and(eq(giftBudgetUsage.shopId, shopId), eq(giftBudgetUsage.scopeId, ruleId))))[0]?.used ?? 0,
    redemptionCount: async (shopId: string, ruleId: string) =>
      (await app().ctx.db.select().from(redemptions).where(and(eq(redemptions.shopId, shopId), eq(redemptions.ruleId, ruleId))))[0]?.count ?? 0,
  };
}

export type RefundedLine = { lineItemId?: string | null; variantId: number; quantity?: number; price: string; discount?: string; allocations?: string[]; properties?: Array<{ name: string; value: string }> };

/** A `refunds/create` payload as the platform sends it: the refunded lines, each with its order line (variant, price, discount, properties). */
export function refundText(input: { id: string; orderId: string; lines: RefundedLine[] }): string {
  const payload = {
    id: 0,
    order_id: 1,
    created_at: '2026-01-20T10:00:00-05:00',
    restock: false,
    transactions: [],
    refund_line_items: input.lines.map((line, index) => ({
      id: 204689539 + index,
      quantity: line.quantity ?? 1,
      line_item_id: Number(line.lineItemId ?? 566157049 + index),
      restock_type: 'no_restock',
      line_item: {
        id: Number(line.lineItemId ?? 566157049 + index),
        variant_id: line.variantId,
        quantity: line.quantity ?? 1,
        price: line.price,
        total_discount: line.discount ?? '0.00',
        discount_allocations: (line.allocations ?? []).map((amount) => ({ amount, discount_application_index: 0 })),
        properties: line.properties ?? [],
      },
    })),
  };
  return JSON.stringify(payload).replace('"id":0', `"id":${input.id}`).replace('"order_id":1', `"order_id":${input.orderId}`);
}

/** The repaired gift line (by its id when known): 100 % off, as the order edit discounts it (newer API versions fill only the allocations). */
export const repairedLine = (variantId: number, quantity = 1, lineItemId: string | null = null): RefundedLine => ({ lineItemId, variantId, quantity, price: '12.00', allocations: [(12 * quantity).toFixed(2)] });
