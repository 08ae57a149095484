/**
 * POST /evaluate's shortcut past the body schema (issue 20 item 5: the schema's walk was a
 * third of the route's CPU). Valid bodies skip the schema, counted on its safeParse; the
 * answers stay the ones the schema path gave, byte for byte: random carts against the engine
 * (planCart on the schema's parse, written as the route wrote it before issue 20), refused
 * bodies with the schema's own 400, and another shop's key with that shop's rules.
 */
import fc from 'fast-check';
import { evaluationContextSchema, planCart } from '@gcrs/engine';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { contextArb } from '../../packages/engine/test/support/arbitraries.ts';
import { customerRedemptions } from '../../src/evaluate/customer-redemptions.ts';
import { liveCompiledRules } from '../../src/evaluate/live-rules.ts';
import { MAX_CART_LINES, MAX_TRACE_NODES } from '../../src/evaluate/limits.ts';
import { evaluateBodySchema } from '../../src/evaluate/schemas.ts';
import { validationError } from '../../src/http/errors.ts';
import { importCampaigns } from '../rules/helpers.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { cartOf, evaluate, line, liveCampaign, product, rule } from './helpers.ts';

const NOW = new Date('2026-06-01T12:00:00Z');

type ImportRule = ReturnType<typeof rule>;
const withOptions = (r: ImportRule, options: Record<string, unknown>): ImportRule => ({ ...r, options: { ...r.options, ...options } });
const withGift = (r: ImportRule, giftConfig: Record<string, unknown>): ImportRule => ({ ...r, giftConfig: { ...r.giftConfig, ...giftConfig } });

/**
 * The body as POST /evaluate wrote it before issue 20 (src/evaluate/evaluate.ts then), from the
 * engine's plan: the reference the route's bytes are held to.
 */
function answerBefore(plan: ReturnType<typeof planCart>, trace: boolean): string {
  return JSON.stringify({
    results: plan.results.map((result) => {
      const { ruleId, campaignId, matched, reasons } = result;
      const extra = {
        ...(result.suppressedBy === undefined ? {} : { suppressedBy: result.suppressedBy }),
        ...(result.repeat === undefined ? {} : { repeat: result.repeat }),
        ...(result.limit === undefined ? {} : { limit: result.limit }),
      };
      return trace ? { ruleId, campaignId, matched, reasons, ...extra, trace: result.trace ?? null } : { ruleId, campaignId, matched, reasons, ...extra };
    }),
    operations: plan.operations,
  });
}

let t: TestApp;
let shop: TestShop;
let other: TestShop;

beforeAll(async () => {
  t = await createTestApp({}, { now: () => NOW });
  shop = await t.createShop('scale');
  other = await t.createShop('scale');
  // Leaves the engine's random contexts meet (arbitraries.ts's small universes).
  await importCampaigns(t, shop, [
    liveCampaign('Shortcut', [
      rule('Big cart', { type: 'cart.subtotal_gte', value: 3000 }),
      rule('Product 1', { type: 'line.has_product_id', value: product(1) }),
      rule('Summer', { type: 'line.in_collection', value: 'summer' }),
      rule('VIP or wrapped', { type: 'OR', children: [{ type: 'customer.tag_in', value: ['vip'] }, { type: 'line.property_equals', key: 'wrap', value: 'yes' }] }),
      rule('Code', { type: 'discount.code_equals', value: 'SAVE10' }, { actionType: 'customer_choice', gifts: [901, 902] }),
      rule('Not EU', { type: 'NOT', child: { type: 'market.handle_in', value: ['eu'] } }),
    ]),
    // The optional keys of a result: suppressedBy (stacking), repeat (per) and limit (maxPerCustomer).
    liveCampaign('Optional keys', [
      withOptions(rule('Exclusive', { type: 'cart.subtotal_gte', value: 6000 }), { priority: 10, exclusive: true }),
      withGift(rule('Per 2 items', { type: 'cart.item_count_gte', value: 1 }), { per: { every: 2, of: 'items', max: 3 } }),
      withOptions(rule('Twice each', { type: 'cart.item_count_gte', value: 0 }), { maxPerCustomer: 2 }),
      withOptions(withGift(rule('Per item, twice', { type: 'cart.item_count_gte', value: 1 }), { per: { every: 1, of: 'items', max: 2 } }), { maxPerCustomer: 2 }),
    ]),
  ]);
});
afterAll(() => t.close());
afterEach(() => vi.restoreAllMocks());

/** What the schema path answers for `body`: the engine's evaluation of the schema's parse, as JSON. */
async function expectedBody(body: unknown, trace: boolean): Promise<string> {
  const rules = await liveCompiledRules(t.ctx.rulesCache, { id: shop.id, rulesVersion: 0 }, 'api');
  if (!rules) throw new Error('no rules');
  const context = evaluationContextSchema.parse(body);
  const redemptions = await customerRedemptions(t.ctx.db, shop.id, rules, context);
  return answerBefore(planCart(rules, context, { now: NOW, trace, traceNodeLimit: MAX_TRACE_NODES, redemptions }), trace);
}

/**
 * The context as a storefront sends it: JSON, attributes in the platform's list form on odd
 * lines, a logged-in customer with an id (so per-customer limits count, with 0 redemptions).
 */
function asSent(context: unknown, listForm: boolean): unknown {
  const body = JSON.parse(JSON.stringify(context)) as { cart: { lines: Array<{ attributes?: Record<string, string> }> }; customer?: { loggedIn: boolean; id?: string } };
  if (body.customer?.loggedIn) body.customer.id = 'gid://shopify/Customer/7';
  if (listForm) {
    for (const [i, l] of body.cart.lines.entries()) {
      if (i % 2 === 1 && l.attributes) (l as { attributes: unknown }).attributes = Object.entries(l.attributes).map(([key, value]) => ({ key, value }));
    }
  }
  return body;
}

describe('POST /evaluate: valid bodies skip the schema', () => {
  it('answers a valid body without the schema\'s parse', async () => {
    const parse = vi.spyOn(evaluateBodySchema, 'safeParse');
    const res = await evaluate(t, shop, cartOf([line({ attributes: [{ key: 'wrap', value: 'yes' }] })], { customer: { loggedIn: true, tags: ['vip'] } }));
    expect(res.statusCode).toBe(200);
    expect(parse).not.toHaveBeenCalled();
  });

  it('answers random carts byte for byte as before, from the engine\'s plan, with and without traces', async () => {
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(contextArb, fc.boolean(), fc.boolean(), async (context, trace, listForm) => {
        const body = asSent(context, listForm);
        const res = await t.api(shop, { method: 'POST', url: `/api/v1/evaluate${trace ? '' : '?trace=false'}`, payload: body as Record<string, unknown> });
        expect(res.statusCode).toBe(200);
        expect(res.body).toBe(await expectedBody(body, trace));
        for (const key of ['suppressedBy', 'repeat', 'limit'] as const) if (res.body.includes(`"${key}"`)) seen.add(key);
      }),
      { numRuns: 80 },
    );
    // The carts met every optional key of a result, so the order of each was compared.
    expect([...seen].sort()).toEqual(['limit', 'repeat', 'suppressedBy']);
  });
});

describe('POST /evaluate: refused bodies are the schema\'s', () => {
  const many = Array.from({ length: MAX_CART_LINES + 1 }, () => line());
  it.each([
    ['no cart', {}],
    ['a bad currency', cartOf([], { cart: { currency: 'US', lines: [] } })],
    ['a negative quantity', cartOf([line({ quantity: -1 })])],
    ['a fractional price', cartOf([line({ price: 1.5 })])],
    ['a product id that is no Product gid', cartOf([line({ productId: 'gid://shopify/ProductVariant/1' })])],
    ['a NUL in a tag', cartOf([], { customer: { loggedIn: true, tags: ['a\u0000'] } })],
    ['a lone surrogate in an attribute', cartOf([line({ attributes: { wrap: '\uD800' } })])],
    ['an attribute list entry without value', cartOf([line({ attributes: [{ key: 'wrap' }] })])],
    ['a collection of numbers as text', cartOf([], { collections: { summer: ['x'] } })],
    ['a null market field', cartOf([], { market: { handle: null, country: 'US' } })],
    ['too many lines', cartOf(many)],
  ])('%s: the schema\'s 400', async (_name, body) => {
    const parse = vi.spyOn(evaluateBodySchema, 'safeParse');
    const res = await evaluate(t, shop, body);
    expect(parse).toHaveBeenCalledTimes(1);
    const result = evaluateBodySchema.safeParse(body);
    if (result.success) throw new Error('the schema accepts this body');
    const refusal = validationError('Invalid request body', result.error);
    expect(res.statusCode).toBe(refusal.status);
    expect(res.json()).toEqual({ ...refusal.body, code: refusal.code, requestId: res.headers['x-request-id'] });
  });

  it('accepts through the schema what the shortcut leaves to it (an emoji, a surrogate pair)', async () => {
    const res = await evaluate(t, shop, cartOf([line()], { customer: { loggedIn: true, tags: ['🎁'] } }));
    expect(res.statusCode).toBe(200);
  });
});

describe('POST /evaluate: each shop its own rules', () => {
  it('another shop\'s key gets that shop\'s rules (none), the admin mount the same bytes as the key', async () => {
    const body = cartOf([line({ price: 5000 })], { customer: { loggedIn: true, tags: ['vip'] } });
    const mine = await evaluate(t, shop, body);
    const theirs = await evaluate(t, other, body);
    const admin = await evaluate(t, shop, body, 'admin');
    expect(mine.statusCode).toBe(200);
    expect((mine.json() as { results: unknown[] }).results).toHaveLength(10);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json()).toEqual({ results: [], operations: [] });
    expect(admin.body).toBe(mine.body);
  });
});
