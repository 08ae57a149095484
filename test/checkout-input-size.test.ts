// The checkout function's input at 200 lines, checked on enable (docs/checkout-function.md
// "The input at 200 lines"): each collection the shop's live rules name is asked of every cart
// line, so a shop naming several has an input over the platform's 128,000 bytes at 200 lines,
// where the platform runs no discount. Enable answers 409 `checkout_input_size` with the
// numbers and in words; `force=1` enables anyway; another shop's collections do not count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { giftVariant } from './support/checkout-shop.ts';
import { collectionGid } from './support/checkout-deep-shop.ts';
import { createTestApp } from './support/test-app.ts';
import type { TestApp, TestShop } from './support/test-app.ts';

type Warning = Record<string, unknown> & { kind: string };
type HealthBody = { error: string; warnings: Warning[]; message: string };

let t: TestApp;
let shop: TestShop;
let other: TestShop;
beforeAll(async () => {
  t = await createTestApp();
  [shop, other] = await Promise.all([t.createShop('scale'), t.createShop('scale')]);
});
afterAll(() => t.close());

/** A draft campaign of one rule: an item in any of `collections` (numbers) gives a gift. */
async function importDraft(target: TestShop, name: string, collections: number[]): Promise<string> {
  const conditionTree =
    collections.length === 0
      ? { type: 'cart.subtotal_gte', value: 5000 }
      : { type: 'OR', children: collections.map((n) => ({ type: 'line.in_collection', value: collectionGid(n) })) };
  const rule = {
    name,
    enabled: true,
    conditionTree,
    giftConfig: { type: 'fixed', gifts: [{ variantId: giftVariant(collections.length), quantity: 1 }], fallbackOnOOS: false },
    options: { actionType: 'auto_add', discountMethod: 'automatic', discountType: 'percentage', discountValue: 100, discountTitle: 'Free gift' },
  };
  const res = await t.api(target, { method: 'POST', url: '/api/v1/campaigns/import', payload: { campaigns: [{ name, enabled: false, isDraft: true, rules: [rule] }] } });
  expect(res.statusCode).toBeLessThan(300);
  const list = (await t.api(target, { method: 'GET', url: '/api/v1/campaigns?perPage=100' })).json() as { campaigns: Array<{ id: string; name: string }> };
  const id = list.campaigns.find((c) => c.name === name)?.id;
  expect(id).toBeDefined();
  return id ?? '';
}

const enable = (target: TestShop, id: string, force = false) => t.api(target, { method: 'POST', url: `/api/v1/campaigns/${id}/enable${force ? '?force=1' : ''}` });
/** The 409's warnings (the catalog is empty, so the gift always warns too). */
async function warningsOf(target: TestShop, id: string): Promise<HealthBody> {
  const res = await enable(target, id);
  expect(res.statusCode).toBe(409);
  return res.json() as HealthBody;
}
const inputWarning = (body: HealthBody) => body.warnings.find((w) => w.kind === 'checkout_input_size');
const isLive = async (target: TestShop, id: string) => {
  const res = await t.api(target, { method: 'GET', url: `/api/v1/campaigns/${id}` });
  expect(res.statusCode).toBe(200);
  const campaign = (res.json() as { campaign: { enabled: boolean; isDraft: boolean } }).campaign;
  return campaign.enabled && !campaign.isDraft;
};

describe('the 200-line input on enable', () => {
  it('one collection named: no input warning (about 113 KB at 200 lines)', async () => {
    const id = await importDraft(shop, 'one collection', [1]);
    expect(inputWarning(await warningsOf(shop, id))).toBeUndefined();
  });

  it('four collections named: 409 checkout_input_size with the estimate, the limit, the lines and the collections, in words', async () => {
    const id = await importDraft(other, 'four collections', [1, 2, 3, 4]);
    const body = await warningsOf(other, id);
    expect(body.error).toBe('health_warnings');
    const warning = inputWarning(body);
    expect(warning).toMatchObject({ kind: 'checkout_input_size', limit: 128000, lines: 200, collections: 4 });
    // 200 lines × (442 + 4 × 74) bytes, plus the configuration's metafield and the envelope.
    expect(Number(warning?.bytes)).toBeGreaterThan(200 * (442 + 4 * 74));
    expect(Number(warning?.bytes)).toBeLessThan(200 * (442 + 4 * 74) + 2_000);
    console.log(`4 collections, one small rule: estimate ${String(warning?.bytes)} bytes`);
    expect(body.warnings[0]?.kind).toBe('checkout_input_size'); // the checkout's warnings first
    expect(body.message).toMatch(new RegExp(`at 200 cart lines the checkout's input would be about ${String(warning?.bytes)} bytes, more than the platform's 128000, because the live rules ask about 4 collections on every line`));
    expect(await isLive(other, id)).toBe(false);
  });

  it('force=1 enables it knowingly; the shop\'s next campaign then warns too, even naming no collection', async () => {
    const id = await importDraft(other, 'four collections, forced', [5, 6, 7, 8]);
    expect((await enable(other, id, true)).statusCode).toBe(200);
    expect(await isLive(other, id)).toBe(true);
    const next = await importDraft(other, 'no collection', []);
    expect(inputWarning(await warningsOf(other, next))).toMatchObject({ collections: 4 });
  });

  it('another shop\'s collections do not count: this shop\'s second collection still fits', async () => {
    const id = await importDraft(shop, 'another collection', [2]);
    expect(inputWarning(await warningsOf(shop, id))).toBeUndefined();
  });

  it('three collections live in this shop: the next campaign warns, with every collection counted once', async () => {
    const first = await importDraft(shop, 'collections 1 and 2', [1, 2]);
    expect((await enable(shop, first, true)).statusCode).toBe(200);
    const id = await importDraft(shop, 'collections 2 and 3', [2, 3]);
    expect(inputWarning(await warningsOf(shop, id))).toMatchObject({ kind: 'checkout_input_size', collections: 3 });
  });

  it('unknown campaign: 404, no warning', async () => {
    const res = await enable(shop, 'cmp_doesnotexist0000');
    expect(res.statusCode).toBe(404);
  });
});
