import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGiftCampaign, order, postOrder } from '../orders/fixtures.ts';
import type { GiftCampaign } from '../orders/fixtures.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

describe('GET /redemptions', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let promo: GiftCampaign;

  beforeAll(async () => {
    t = await createTestApp();
    [shop, other] = await Promise.all([t.createShop('scale'), t.createShop('scale')]);
    promo = await createGiftCampaign(t, shop.id, 2);
    const gift = (ruleId: string | undefined) => ({ gift: { campaignId: promo.campaignId, ruleId } });
    await postOrder(t, shop.id, order({ customerId: '42', completedAt: '2026-01-01T10:00:00.000Z', lines: [gift(promo.ruleIds[0])] }));
    await postOrder(t, shop.id, order({ customerId: '42', completedAt: '2026-01-03T10:00:00.000Z', lines: [gift(promo.ruleIds[0])] }));
    await postOrder(t, shop.id, order({ customerId: '42', completedAt: '2026-01-02T10:00:00.000Z', lines: [gift(promo.ruleIds[1])] }));
  });
  afterAll(() => t.close());

  const get = (s: TestShop, query: string) => t.api(s, { method: 'GET', url: `/api/v1/redemptions${query}` });

  it('lists the customer’s counts per rule, most recent first, cacheable for 30 seconds', async () => {
    const res = await get(shop, '?customerId=42');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, max-age=30');
    expect(res.json()).toEqual({
      redemptions: [
        { ruleId: promo.ruleIds[0], campaignId: promo.campaignId, count: 2, lastRedeemedAt: '2026-01-03T10:00:00.000Z' },
        { ruleId: promo.ruleIds[1], campaignId: promo.campaignId, count: 1, lastRedeemedAt: '2026-01-02T10:00:00.000Z' },
      ],
    });
  });

  it('answers an empty list for a customer without redemptions', async () => {
    const res = await get(shop, '?customerId=43');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ redemptions: [] });
  });

  it('never shows another shop’s redemptions', async () => {
    const res = await get(other, '?customerId=42');
    expect(res.json()).toEqual({ redemptions: [] });
    const admin = await t.admin({ method: 'GET', url: `/admin/v1/shops/${other.id}/redemptions?customerId=42` });
    expect(admin.json()).toEqual({ redemptions: [] });
  });

  it.each([
    ['missing', ''],
    ['empty', '?customerId='],
    ['letters', '?customerId=abc'],
    ['digits then letters', '?customerId=12a'],
    ['negative', '?customerId=-1'],
    ['decimal', '?customerId=1.5'],
    ['a gid', '?customerId=gid://shopify/Customer/42'],
    ['spaces', '?customerId=%2042'],
    ['repeated', '?customerId=1&customerId=2'],
  ])('answers 400 when customerId is %s', async (_name, query) => {
    const res = await get(shop, query);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Invalid query parameters', path: ['customerId'] });
  });

  it('counts against the default rate row and runs on the admin mount', async () => {
    expect((await get(shop, '?customerId=42')).headers['ratelimit-policy']).toMatch(/default/);
    const admin = await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/redemptions?customerId=42` });
    expect((admin.json() as { redemptions: unknown[] }).redemptions).toHaveLength(2);
  });
});
