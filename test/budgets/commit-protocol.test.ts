/**
 * Order intake and give-backs commit through the shops' unit of work (src/shops/unit-of-work.ts,
 * `writeShopUnlocked`): when an order spends a gift budget, or a cancellation re-opens one, the
 * rules version on the shop row changes, and every cache that hands out that row is told after
 * the commit, as after any other shop write. The reader here is the storefront's credential
 * cache (src/storefront/auth-cache.ts): a token verified before the order must not keep
 * answering with the shop row of before. Orders that change no rule leave the caches alone.
 * Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL (there the credential cache is off,
 * every verification reads the database).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOP_AUTH_TOPIC } from '../../src/cache/shop-entry-cache.ts';
import { shops } from '../../src/db/schema.ts';
import { budgetedCampaign, cancelledText, giftProperties } from '../give-backs/fixtures.ts';
import { order, postOrder } from '../orders/fixtures.ts';
import { SECRET, deliver, domainOf, ordersPaidText } from '../platform-webhooks/fixtures.ts';
import { createToken } from '../storefront/helpers.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

let t: TestApp;
let shop: TestShop;
let other: TestShop;
let token: string;
let domain: string;
let gift: { campaignId: string; ruleId: string };
/** SHOP_AUTH_TOPIC messages per shop id, as the invalidation bus delivered them. */
const published = new Map<string, number>();

beforeAll(async () => {
  t = await createTestApp({ PLATFORM_APP_SECRET: SECRET });
  [shop, other] = await Promise.all([t.createShop('scale'), t.createShop('scale')]);
  ({ capped: gift } = await budgetedCampaign(t, shop, 1));
  token = (await createToken(t, shop.id)).token;
  domain = await domainOf(t, shop.id);
  t.ctx.invalidation.subscribe(SHOP_AUTH_TOPIC, (shopId) => {
    published.set(shopId, (published.get(shopId) ?? 0) + 1);
  });
});
afterAll(() => t.close());

const storedVersion = async (shopId: string) => (await t.ctx.db.select({ v: shops.rulesVersion }).from(shops).where(eq(shops.id, shopId)))[0]?.v;
/** The shop row the storefront's credential cache hands out for the token. */
const cachedVersion = async () => (await t.ctx.storefrontAuth.verifyToken(token))?.shop.rulesVersion;
const giftLine = () => ({ quantity: 1, gift });
/**
 * The messages the shop was sent since the subscription. Counted only on the in-process bus,
 * which delivers synchronously (with Redis or LISTEN/NOTIFY a message of the setup's writes may
 * still arrive later); there the credential cache is off anyway.
 */
const expectPublished = (shopId: string, count: number | undefined) => {
  if (t.ctx.invalidation.kind === 'memory') expect(published.get(shopId)).toBe(count);
};

/**
 * Runs `write`, which changes the rules (spends or re-opens the budget), and checks that the
 * credential cache then hands out the shop row it committed, and that the bus carried the
 * `published`-th message for the shop. Returns the answer of `write`.
 */
async function expectEveryReaderTold(write: () => Promise<{ statusCode: number; body: string }>, published: number) {
  const before = await cachedVersion();
  expect(before).toBe(await storedVersion(shop.id));
  const res = await write();
  expect(res.statusCode, res.body).toBe(200);
  const after = await storedVersion(shop.id);
  expect(after).toBeGreaterThan(before ?? Infinity);
  expect(await cachedVersion()).toBe(after);
  expectPublished(shop.id, published);
  return JSON.parse(res.body) as unknown;
}

describe('after an intake that spends a budget', () => {
  it('the admin order route: the credential cache answers with the new rules version', async () => {
    const answer = await expectEveryReaderTold(() => postOrder(t, shop.id, order({ id: '5001001', lines: [{}, giftLine()] })), 1);
    expect(answer).toEqual({ ok: true, duplicate: false });
  });

  it('a cancellation that re-opens the budget (platform webhook): the same', async () => {
    await expectEveryReaderTold(() => deliver(t, cancelledText({ orderId: '5001001' }), { topic: 'orders/cancelled', domain, webhookId: 'commit-cancel-1' }), 2);
  });

  it('orders/paid spending it again: the same', async () => {
    const body = ordersPaidText({ id: '5001002', lines: [{}, { variantId: 904, productId: 9, price: '0.00', quantity: 1, properties: giftProperties(gift) }] });
    const answer = await expectEveryReaderTold(() => deliver(t, body, { topic: 'orders/paid', domain, webhookId: 'commit-paid-1' }), 3);
    expect(answer).toEqual({ ok: true, duplicate: false });
  });
});

describe('an intake that changes no rule', () => {
  it('keeps the rules version and tells no cache; another shop is never told', async () => {
    const before = await storedVersion(shop.id);
    const res = await postOrder(t, shop.id, order({ id: '5001003', lines: [{}] }));
    expect(res.json()).toEqual({ ok: true, duplicate: false });
    // The budget is spent: this gift is over budget and changes nothing either.
    const over = await postOrder(t, shop.id, order({ id: '5001004', lines: [{}, giftLine()] }));
    expect(over.json()).toEqual({ ok: true, duplicate: false });
    expect(await storedVersion(shop.id)).toBe(before);
    expect(await cachedVersion()).toBe(before);
    expectPublished(shop.id, 3);
    expectPublished(other.id, undefined);
  });
});
