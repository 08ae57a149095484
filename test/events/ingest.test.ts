import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox, storefrontEvents, webhookEndpoints } from '../../src/db/schema.ts';
import { storefrontEventBatchSchema } from '../../src/events/schema.ts';
import { createGiftCampaign } from '../orders/fixtures.ts';
import type { GiftCampaign } from '../orders/fixtures.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

const VARIANT = 'gid://shopify/ProductVariant/42';

describe('POST /events', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let mine: GiftCampaign;
  let second: GiftCampaign;
  let theirs: GiftCampaign;

  beforeAll(async () => {
    t = await createTestApp();
    [shop, other] = await Promise.all([t.createShop('scale'), t.createShop('scale')]);
    mine = await createGiftCampaign(t, shop.id, 2);
    second = await createGiftCampaign(t, shop.id, 1);
    theirs = await createGiftCampaign(t, other.id, 1);
  });
  afterAll(() => t.close());

  const event = (c: GiftCampaign, type = 'gift_added', extra: Record<string, unknown> = {}) => ({
    type,
    campaignId: c.campaignId,
    ruleId: c.ruleIds[0],
    variantId: VARIANT,
    ...extra,
  });
  const post = (s: TestShop, payload: unknown) =>
    t.api(s, { method: 'POST', url: '/api/v1/events', payload: payload as Record<string, unknown> });
  const eventsOf = (shopId: string) =>
    t.ctx.db.select().from(storefrontEvents).where(eq(storefrontEvents.shopId, shopId)).orderBy(storefrontEvents.id);

  it('stores every event of a batch with its context and answers { ok, count }', async () => {
    const res = await post(shop, {
      events: [event(mine), event(mine, 'choice_shown'), event(mine, 'choice_selected'), event(mine, 'gift_removed')],
      visitorId: 'v-1',
      sessionId: 's-1',
      pageUrl: 'https://shop.example.com/cart',
      locale: 'en-US',
      currency: 'USD',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, count: 4 });
    expect(res.headers['ratelimit-policy']).toMatch(/events/);
    const rows = await eventsOf(shop.id);
    expect(rows.map((r) => r.type)).toEqual(['gift_added', 'choice_shown', 'choice_selected', 'gift_removed']);
    expect(rows[0]).toMatchObject({
      campaignId: mine.campaignId,
      ruleId: mine.ruleIds[0],
      variantId: VARIANT,
      visitorId: 'v-1',
      sessionId: 's-1',
      context: { pageUrl: 'https://shop.example.com/cart', locale: 'en-US', currency: 'USD' },
    });
  });

  it('drops events naming another shop’s campaign, an unknown rule, or a rule of another campaign', async () => {
    const res = await post(shop, {
      events: [
        event(theirs),
        { ...event(mine), ruleId: theirs.ruleIds[0] },
        { ...event(mine), ruleId: 'rul_unknown' },
        { ...event(mine), campaignId: second.campaignId },
        { ...event(mine), ruleId: mine.ruleIds[1] },
      ],
    });
    expect(res.json()).toEqual({ ok: true, count: 1 });
    const stored = await t.ctx.db.select().from(storefrontEvents).where(eq(storefrontEvents.campaignId, theirs.campaignId));
    expect(stored).toEqual([]);
  });

  it('answers count 0 when every event is dropped', async () => {
    const res = await post(other, { events: [event(mine)] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, count: 0 });
  });

  it('keeps cart tokens (event-level first, then the batch’s) while the shop collects them', async () => {
    const res = await post(shop, {
      events: [event(second, 'choice_shown', { cartToken: 'cart-event' }), event(second, 'choice_shown')],
      cartToken: 'cart-batch',
    });
    expect(res.json()).toEqual({ ok: true, count: 2 });
    const rows = (await eventsOf(shop.id)).filter((r) => r.campaignId === second.campaignId);
    expect(rows.map((r) => r.cartToken)).toEqual(['cart-event', 'cart-batch']);
  });

  it('drops every cart token when shopSettings.data.collectCartTokens is false', async () => {
    const privateShop = await t.createShop('scale');
    const c = await createGiftCampaign(t, privateShop.id);
    const patched = await t.admin({
      method: 'PATCH',
      url: `/admin/v1/shops/${privateShop.id}`,
      payload: { settings: { data: { collectCartTokens: false } } },
    });
    expect(patched.statusCode).toBe(200);
    const res = await post(privateShop, { events: [event(c, 'gift_added', { cartToken: 'cart-event' })], cartToken: 'cart-batch' });
    expect(res.json()).toEqual({ ok: true, count: 1 });
    const [row] = await eventsOf(privateShop.id);
    expect(row?.cartToken).toBeNull();
    expect(JSON.stringify(row)).not.toContain('cart-');
  });

  it('writes one gift.added outbox row per accepted gift_added, in the same transaction', async () => {
    const hooked = await t.createShop('scale');
    const c = await createGiftCampaign(t, hooked.id);
    // Written directly: the endpoint admin route belongs to the webhooks feature.
    await t.ctx.db.insert(webhookEndpoints).values({
      shopId: hooked.id,
      id: 'whe_test',
      url: 'https://hooks.example.com/gcrs',
      events: [],
      secret: 'whsec_dGVzdA==',
    });
    const res = await post(hooked, {
      events: [event(c), event(c, 'choice_shown'), event(c), event(theirs)],
      visitorId: 'v-9',
    });
    expect(res.json()).toEqual({ ok: true, count: 3 });
    const rows = await t.ctx.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.shopId, hooked.id), eq(outbox.eventType, 'gift.added')));
    expect(rows).toHaveLength(2);
    expect(rows[0]?.payload).toMatchObject({
      type: 'gift.added',
      data: { shopId: hooked.id, campaignId: c.campaignId, ruleId: c.ruleIds[0], variantId: VARIANT, visitorId: 'v-9' },
    });
  });

  it('accepts 100 events and answers them with one count', async () => {
    const res = await post(shop, { events: Array.from({ length: 100 }, () => event(mine, 'choice_shown')) });
    expect(res.json()).toEqual({ ok: true, count: 100 });
  });

  it.each([
    ['no body fields', {}, ['events']],
    ['events not an array', { events: 'x' }, ['events']],
    ['an empty batch', { events: [] }, ['events']],
    ['101 events', { events: Array.from({ length: 101 }, () => ({})) }, ['events']],
    ['an unknown type', { events: [{ type: 'gift_exploded', campaignId: 'c', ruleId: 'r', variantId: VARIANT }] }, ['events', 0, 'type']],
    ['a missing campaignId', { events: [{ type: 'gift_added', ruleId: 'r', variantId: VARIANT }] }, ['events', 0, 'campaignId']],
    ['an empty ruleId', { events: [{ type: 'gift_added', campaignId: 'c', ruleId: '', variantId: VARIANT }] }, ['events', 0, 'ruleId']],
    ['a variantId that is not a variant gid', { events: [{ type: 'gift_added', campaignId: 'c', ruleId: 'r', variantId: '42' }] }, ['events', 0, 'variantId']],
    ['a product gid as variantId', { events: [{ type: 'gift_added', campaignId: 'c', ruleId: 'r', variantId: 'gid://shopify/Product/1' }] }, ['events', 0, 'variantId']],
    ['a non-string cartToken', { events: [{ type: 'gift_added', campaignId: 'c', ruleId: 'r', variantId: VARIANT, cartToken: 5 }] }, ['events', 0, 'cartToken']],
    ['a pageUrl that is not a URL', { events: [{ type: 'gift_added', campaignId: 'c', ruleId: 'r', variantId: VARIANT }], pageUrl: 'not a url' }, ['pageUrl']],
    ['a javascript: pageUrl', { events: [{ type: 'gift_added', campaignId: 'c', ruleId: 'r', variantId: VARIANT }], pageUrl: 'javascript:alert(1)' }, ['pageUrl']],
    ['a malformed locale', { events: [{ type: 'gift_added', campaignId: 'c', ruleId: 'r', variantId: VARIANT }], locale: 'english please' }, ['locale']],
    ['a lowercase currency', { events: [{ type: 'gift_added', campaignId: 'c', ruleId: 'r', variantId: VARIANT }], currency: 'usd' }, ['currency']],
  ] as const)('answers 400 with issue and path for %s', async (_name, payload, path) => {
    const res = await post(shop, payload);
    expect(res.statusCode).toBe(400);
    const body = res.json() as { error: string; issue: string; path: unknown[] };
    expect(body.error).toBe('Invalid events body');
    expect(typeof body.issue).toBe('string');
    expect(body.path).toEqual(path);
  });

  it('answers 400 for malformed JSON and a non-object body', async () => {
    const malformed = await t.api(shop, {
      method: 'POST',
      url: '/api/v1/events',
      headers: { 'content-type': 'application/json' },
      payload: '{"events": [',
    });
    expect(malformed.statusCode).toBe(400);
    const array = await t.api(shop, {
      method: 'POST',
      url: '/api/v1/events',
      headers: { 'content-type': 'application/json' },
      payload: '[]',
    });
    expect(array.statusCode).toBe(400);
  });

  it('stores nothing from a rejected batch', async () => {
    const before = (await eventsOf(shop.id)).length;
    await post(shop, { events: [event(mine), { ...event(mine), type: 'nope' }] });
    expect(await eventsOf(shop.id)).toHaveLength(before);
  });

  it('runs the same handler on the admin mount', async () => {
    const res = await t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/events`, payload: { events: [event(mine)] } });
    expect(res.json()).toEqual({ ok: true, count: 1 });
    const crossShop = await t.admin({ method: 'POST', url: `/admin/v1/shops/${other.id}/events`, payload: { events: [event(mine)] } });
    expect(crossShop.json()).toEqual({ ok: true, count: 0 });
  });

  it('exports the schema a storefront proxy validates with', () => {
    expect(storefrontEventBatchSchema.safeParse({ events: [event(mine)] }).success).toBe(true);
    expect(storefrontEventBatchSchema.safeParse({ events: [] }).success).toBe(false);
  });
});
