/**
 * Per-customer limits at checkout (docs/promotions.md "Per-customer limits"): an order whose
 * customer redeemed a limited rule queues a `redemptions_sync` job; the dispatcher sets the
 * customer's `$app:gifts` / `redemptions` metafield on a connected shop through the platform's
 * Admin API (the stand-in platform, dev/platform/), recomputed from the redemption records
 * (so an older job run late writes the latest counts), and the checkout function reading that
 * value stops discounting at the limit. An unconnected shop's job finishes with nothing sent; a
 * 401 marks the connection broken and retries. Both stores.
 */
import { buildCheckoutConfig, runGiftDiscount } from '@gcrs/engine/checkout';
import type { CheckoutFunctionConfig, GiftFunctionLine } from '@gcrs/engine/checkout';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '../../src/db/schema.ts';
import { createOutboxDispatcher } from '../../src/outbox/dispatcher.ts';
import { createPlatformJobs } from '../../src/platform-jobs.ts';
import { createShopDiscountPort } from '../../src/platform/shop-discount-port.ts';
import { liveCampaign, rule, variant } from '../evaluate/helpers.ts';
import { order, postOrder } from '../orders/fixtures.ts';
import { importCampaigns, payloadOf } from '../rules/helpers.ts';
import { domainOf } from '../platform-webhooks/fixtures.ts';
import { grantToken, revokeToken, startTestPlatform } from '../support/platform-standin.ts';
import type { PlatformStandin } from '../../dev/platform/platform.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { createWebhookSender } from '../../src/webhooks/sender.ts';

const SECRET = 'platform-app-secret-for-redemption-tests';
const TOKEN = `shpat_${'d4'.repeat(16)}`;

let t: TestApp;
let platform: PlatformStandin;
let shop: TestShop;
let other: TestShop;
const ids: Record<string, { ruleId: string; campaignId: string }> = {};

const limitedRule = (name: string, max: number, gift: number) => {
  const base = rule(name, { type: 'cart.subtotal_gte', value: 5000 }, { gifts: [gift] });
  return { ...base, options: { ...base.options, maxPerCustomer: max } };
};

beforeAll(async () => {
  platform = await startTestPlatform(SECRET);
  t = await createTestApp({ PLATFORM_APP_SECRET: SECRET, PLATFORM_ADMIN_API_URL: platform.url, PLATFORM_DISCOUNT_FUNCTION_ID: 'fn-gifts-1' });
  [shop, other] = await Promise.all([t.createShop('scale'), t.createShop('scale')]);
  grantToken(platform, await domainOf(t, shop.id), TOKEN);
  const connected = await t.admin({ method: 'PUT', url: `/admin/v1/shops/${shop.id}/platform-connection`, payload: { accessToken: TOKEN } });
  expect(connected.statusCode).toBe(200);
  await importCampaigns(t, shop, [liveCampaign('Twice', [limitedRule('Twice', 2, 901), rule('Plain', { type: 'cart.subtotal_gte', value: 5000 }, { gifts: [902] })])]);
  await importCampaigns(t, other, [liveCampaign('Elsewhere', [limitedRule('Elsewhere', 1, 903)])]);
  for (const s of [shop, other]) for (const r of (await payloadOf(t, s)).rules) ids[r.name] = { ruleId: r.id, campaignId: r.campaignId };
});
afterAll(async () => {
  await t.close();
  await platform.close();
});

function dispatcher() {
  const { config } = t.ctx;
  const port = createShopDiscountPort({ db: t.ctx.db, logger: t.ctx.logger, secret: config.platformAppSecret, functionId: config.platformDiscountFunctionId, adminApiUrl: config.platformAdminApiUrl });
  return createOutboxDispatcher({ db: t.ctx.db, logger: t.ctx.logger, jobs: createPlatformJobs({ db: t.ctx.db, logger: t.ctx.logger, discountPort: port }), webhooks: createWebhookSender(), pollMs: 20 });
}

const redeem = async (s: TestShop, customerId: string, ...names: string[]) => {
  const lines = [{}, ...names.map((name) => ({ gift: ids[name] ?? { campaignId: '' } }))];
  const res = await postOrder(t, s.id, order({ customerId, lines }));
  expect(res.statusCode, res.body).toBe(200);
};
/** The customer metafields the stand-in platform was asked to set, in order. */
const customerWrites = () =>
  platform.requests
    .filter((r) => r.query.includes('metafieldsSet'))
    .flatMap((r) => r.variables.metafields as Array<{ ownerId: string; namespace: string; key: string; type: string; value: string }>)
    .filter((m) => m.ownerId.startsWith('gid://shopify/Customer/'));
const jobs = (s: TestShop) => t.ctx.db.select().from(outbox).where(and(eq(outbox.shopId, s.id), eq(outbox.kind, 'redemptions_sync')));

describe('the customer redemptions metafield', () => {
  it('is set on the connected shop after an order with a limited gift, recomputed from the records', async () => {
    await dispatcher().runOnce(); // the campaigns' discount syncs
    platform.requests.length = 0;
    await redeem(shop, '42', 'Twice', 'Plain');
    expect(await dispatcher().runOnce()).toMatchObject({ claimed: 1, delivered: 1 });
    const twice = ids.Twice?.ruleId ?? '';
    expect(customerWrites()).toEqual([{ ownerId: 'gid://shopify/Customer/42', namespace: '$app:gifts', key: 'redemptions', type: 'json', value: JSON.stringify({ [twice]: 1 }) }]);
    expect(platform.requests.every((r) => r.token === TOKEN && r.path === '/admin/api/2025-10/graphql.json')).toBe(true);

    // Two more orders before the dispatcher runs: both jobs write the latest counts (a late job is harmless).
    platform.requests.length = 0;
    await redeem(shop, '42', 'Twice');
    await redeem(shop, '42', 'Plain');
    await redeem(shop, '42', 'Twice');
    expect(await dispatcher().runOnce()).toMatchObject({ claimed: 2, delivered: 2 });
    expect(customerWrites().map((m) => m.value)).toEqual([JSON.stringify({ [twice]: 3 }), JSON.stringify({ [twice]: 3 })]);
  });

  it('the checkout function reading that value stops discounting the limited rule at its limit', async () => {
    const payload = await payloadOf(t, shop);
    const { config } = buildCheckoutConfig(payload as never);
    const gift = (name: string, n: number): GiftFunctionLine => ({
      id: `gid://shopify/CartLine/${n}`,
      quantity: 1,
      cost: { amountPerQuantity: { amount: '5.00', currencyCode: 'USD' } },
      merchandise: { id: variant(n) },
      campaignId: { value: ids[name]?.campaignId ?? '' },
      ruleId: { value: ids[name]?.ruleId ?? '' },
    });
    const lines: GiftFunctionLine[] = [
      { id: 'gid://shopify/CartLine/1', quantity: 1, cost: { amountPerQuantity: { amount: '60.00', currencyCode: 'USD' } }, merchandise: { id: variant(11) } },
      gift('Twice', 901),
      gift('Plain', 902),
    ];
    const discounted = (value: string | null, cfg: CheckoutFunctionConfig = config) =>
      runGiftDiscount({
        cart: { lines, buyerIdentity: { isAuthenticated: true, customer: { id: 'gid://shopify/Customer/42', metafield: value === null ? null : { value } } } },
        discount: { discountClasses: ['PRODUCT'], metafield: { jsonValue: cfg } },
      }).operations.flatMap((op) => op.productDiscountsAdd.candidates.flatMap((c) => c.targets.map((target) => target.cartLine.id)));
    const written = customerWrites().at(-1)?.value ?? '';
    expect(discounted(written)).toEqual(['gid://shopify/CartLine/902']);
    expect(discounted(null)).toEqual(['gid://shopify/CartLine/901', 'gid://shopify/CartLine/902']);
  });

  it('an unconnected shop\'s job finishes with nothing sent; an order without a limited gift queues none', async () => {
    platform.requests.length = 0;
    await redeem(other, '42', 'Elsewhere');
    await redeem(shop, '43', 'Plain');
    expect((await jobs(other)).map((row) => row.payload)).toEqual([{ customerId: '42' }]);
    expect((await jobs(shop)).map((row) => row.payload)).not.toContainEqual({ customerId: '43' });
    expect(await dispatcher().runOnce()).toMatchObject({ claimed: 1, delivered: 1 });
    expect((await jobs(other)).map((row) => row.status)).toEqual(['delivered']);
    expect(customerWrites()).toEqual([]);
  });

  it('a 401 marks the connection broken and the job retries', async () => {
    const restore = revokeToken(platform, TOKEN);
    try {
      await redeem(shop, '44', 'Twice');
      expect(await dispatcher().runOnce()).toMatchObject({ claimed: 1, retrying: 1 });
      const pending = (await jobs(shop)).filter((row) => row.status === 'pending');
      expect(pending.map((row) => [row.payload, row.lastError])).toEqual([[{ customerId: '44' }, expect.stringMatching(/refused the access token \(401\)/)]]);
      const status = (await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/platform-connection` })).json() as Record<string, unknown>;
      expect(status).toMatchObject({ broken: true });
    } finally {
      restore();
    }
  });

  it('a PUT that gives an already-redeemed rule a limit queues the sync of each customer who redeemed it; changing a limit queues none', async () => {
    await dispatcher().runOnce(); // whatever is due
    const campaignId = ids.Plain?.campaignId ?? '';
    const current = (await t.api(shop, { method: 'GET', url: `/api/v1/campaigns/${campaignId}` })).json().campaign as { rules: Array<{ name: string; options: Record<string, unknown> }> };
    const put = (change: (r: { name: string; options: Record<string, unknown> }) => Record<string, unknown>) =>
      t.api(shop, { method: 'PUT', url: `/api/v1/campaigns/${campaignId}`, payload: { ...current, rules: current.rules.map((r) => ({ ...r, options: change(r) })) } });
    const pendingCustomers = async () => (await jobs(shop)).filter((row) => row.status === 'pending').map((row) => (row.payload as { customerId: string }).customerId).sort();
    const before = await pendingCustomers();
    // Twice 2 → 3: the counts do not change, the configuration carries the limit.
    expect((await put((r) => (r.name === 'Twice' ? { ...r.options, maxPerCustomer: 3 } : r.options))).statusCode).toBe(200);
    expect(await pendingCustomers()).toEqual(before);
    // Plain gains a limit: 42 and 43 redeemed it.
    const res = await put((r) => ({ ...r.options, maxPerCustomer: 3 }));
    expect(res.statusCode, res.body).toBe(200);
    expect(await pendingCustomers()).toEqual([...before, '42', '43'].sort());
    platform.requests.length = 0;
    await dispatcher().runOnce();
    const plain = ids.Plain?.ruleId ?? '';
    const written = Object.fromEntries(customerWrites().map((m) => [m.ownerId, JSON.parse(m.value) as Record<string, number>]));
    expect(written['gid://shopify/Customer/42']?.[plain]).toBe(2);
    expect(written['gid://shopify/Customer/43']).toEqual({ [plain]: 1 });
  });

  it('a malformed job payload fails at once, without a platform call', async () => {
    await t.ctx.db.insert(outbox).values({ shopId: shop.id, id: 'obx_bad_redemptions', kind: 'redemptions_sync', eventType: 'redemptions_sync', payload: { customerId: 'x y' }, nextAttemptAt: new Date() });
    platform.requests.length = 0;
    const summary = await dispatcher().runOnce();
    expect(summary.failed).toBeGreaterThanOrEqual(1);
    const [row] = await t.ctx.db.select().from(outbox).where(and(eq(outbox.shopId, shop.id), eq(outbox.id, 'obx_bad_redemptions')));
    expect(row).toMatchObject({ status: 'failed', lastError: 'Job payload has no numeric customerId' });
    expect(customerWrites()).toEqual([]);
  });
});
