/**
 * POST /evaluate without traces (`?trace=false`) and the bounds of one evaluation (issue 9
 * item 2): the body limit (413), the cart line limit (400), and the trace node limit that
 * bounds the size of a traced answer. Every refusal is a JSON 4xx, never a 5xx.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVALUATE_BODY_LIMIT_BYTES, MAX_CART_LINES, MAX_TRACE_NODES } from '../../src/evaluate/limits.ts';
import { importCampaigns } from '../rules/helpers.ts';
import { errorBody } from '../support/error-body.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { cartOf, line, liveCampaign, product, rule, simulate, variant } from './helpers.ts';
import type { Evaluation } from './helpers.ts';

const spend = (value: number) => ({ type: 'cart.subtotal_gte', value });
const hasProduct = (n: number) => ({ type: 'line.has_product_id', value: product(n) });

let t: TestApp;
let shop: TestShop;
let other: TestShop;

/** POST /evaluate with a raw query string and a body sent as given (string bodies unchanged). */
const post = (who: TestShop, query: string, payload: unknown) =>
  t.api(who, {
    method: 'POST',
    url: `/api/v1/evaluate${query}`,
    headers: { 'content-type': 'application/json' },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });

const withoutTraces = (evaluation: Evaluation) => ({
  results: evaluation.results.map(({ trace: _trace, ...rest }) => rest),
  operations: evaluation.operations,
});

beforeAll(async () => {
  t = await createTestApp();
  shop = await t.createShop('scale');
  other = await t.createShop('scale');
  await importCampaigns(t, shop, [
    liveCampaign('Live', [
      rule('Spend 50', spend(5000)),
      rule('Product 1 or 2, not a code', {
        type: 'AND',
        children: [{ type: 'OR', children: [hasProduct(1), hasProduct(2)] }, { type: 'NOT', child: { type: 'discount.code_present' } }],
      }),
      rule('Choice', { type: 'OR', children: [spend(20_000), hasProduct(3)] }, { actionType: 'customer_choice', gifts: [901, 902] }),
    ]),
  ]);
});
afterAll(() => t.close());

describe('?trace=false', () => {
  it('answers the same results and operations, without a trace key', async () => {
    const context = cartOf([line({ price: 6000 }), line({ productId: product(3), variantId: variant(31) })]);
    const full = await post(shop, '', context);
    const lean = await post(shop, '?trace=false', context);
    expect(full.statusCode, full.body).toBe(200);
    expect(lean.statusCode, lean.body).toBe(200);
    const traced = full.json() as Evaluation;
    const untraced = lean.json() as Evaluation;
    expect(traced.results.every((r) => r.trace !== null && typeof r.trace === 'object')).toBe(true);
    expect(untraced.results.every((r) => !Object.hasOwn(r, 'trace'))).toBe(true);
    expect(untraced.results.map((r) => r.matched)).toEqual([true, true, true]);
    expect(untraced).toEqual(withoutTraces(traced));
    expect(lean.body.length).toBeLessThan(full.body.length);
  });

  it('?trace=true is the default answer', async () => {
    const context = cartOf([line({ price: 100 })]);
    const explicit = await post(shop, '?trace=true', context);
    expect(explicit.statusCode).toBe(200);
    expect(explicit.json()).toEqual((await post(shop, '', context)).json());
  });

  it('works on the admin mount and the simulator', async () => {
    const context = cartOf([line({ price: 6000 })]);
    const admin = await t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/evaluate?trace=false`, payload: context });
    expect(admin.statusCode, admin.body).toBe(200);
    expect(admin.json()).toEqual((await post(shop, '?trace=false', context)).json());
    const simulated = await t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/simulate?trace=false`, payload: { context } });
    expect(simulated.statusCode, simulated.body).toBe(200);
    expect((simulated.json() as Evaluation).results.every((r) => !Object.hasOwn(r, 'trace'))).toBe(true);
    expect((await simulate(t, shop.id, { context })).json()).toMatchObject(withoutTraces(simulated.json() as Evaluation));
  });

  it.each(['maybe', '0', 'FALSE', ''])('refuses trace=%j with a 400 naming the query field', async (value) => {
    const res = await post(shop, `?trace=${value}`, cartOf([]));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(errorBody('Invalid query parameters', 'validation', { issue: 'Expected true or false', path: ['trace'] }));
  });

  it('refuses a repeated trace parameter', async () => {
    const res = await post(shop, '?trace=true&trace=false', cartOf([]));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation', path: ['trace'] });
  });

  it('authenticates before it reads the query, and answers each shop with its own rules', async () => {
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/v1/evaluate?trace=maybe', payload: cartOf([]) });
    expect(anonymous.statusCode).toBe(401);
    const theirs = await post(other, '?trace=false', cartOf([line({ price: 6000 })]));
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json()).toEqual({ results: [], operations: [] });
  });

  it('gives the same results and operations as the traced answer on generated carts (property)', async () => {
    const lineArb = fc.record({
      productId: fc.integer({ min: 1, max: 4 }).map(product),
      variantId: fc.integer({ min: 1, max: 4 }).map(variant),
      quantity: fc.integer({ min: 0, max: 5 }),
      price: fc.integer({ min: 0, max: 8000 }),
      attributes: fc.option(fc.constantFrom({ gift_wrap: 'yes' }, [{ key: 'gift_wrap', value: null }]), { nil: undefined }),
    });
    const contextArb = fc.record({
      cart: fc.record({ currency: fc.constant('USD'), lines: fc.array(lineArb, { maxLength: 6 }), discountCodes: fc.array(fc.constantFrom('A', 'B'), { maxLength: 1 }) }),
    });
    await fc.assert(
      fc.asyncProperty(contextArb, async (context) => {
        const [full, lean] = await Promise.all([post(shop, '', context), post(shop, '?trace=false', context)]);
        expect(full.statusCode, full.body).toBe(200);
        expect(lean.statusCode, lean.body).toBe(200);
        expect(lean.json()).toEqual(withoutTraces(full.json() as Evaluation));
      }),
      { numRuns: 30 },
    );
  });
});

describe('limits', () => {
  /** A context of about `bytes` bytes of JSON: one line whose attribute value pads it. */
  const contextOfSize = (bytes: number) => {
    const bare = JSON.stringify(cartOf([line({ attributes: { note: '' } })]));
    return JSON.stringify(cartOf([line({ attributes: { note: 'x'.repeat(bytes - bare.length) } })]));
  };

  it('takes a body of exactly the limit and refuses one byte more with a JSON 413', async () => {
    const atLimit = contextOfSize(EVALUATE_BODY_LIMIT_BYTES);
    expect(Buffer.byteLength(atLimit)).toBe(EVALUATE_BODY_LIMIT_BYTES);
    expect((await post(shop, '?trace=false', atLimit)).statusCode).toBe(200);
    const over = await post(shop, '', contextOfSize(EVALUATE_BODY_LIMIT_BYTES + 1));
    expect(over.statusCode).toBe(413);
    expect(over.json()).toEqual(
      errorBody('Request body too large', 'payload_too_large', { issue: `The body limit of this route is ${EVALUATE_BODY_LIMIT_BYTES} bytes` }),
    );
  });

  it('keeps the server-wide body limit on other routes', async () => {
    const big = JSON.stringify({ campaigns: [liveCampaign('Big', [rule('x'.repeat(EVALUATE_BODY_LIMIT_BYTES), spend(1))])] });
    const res = await t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/campaigns/import`, headers: { 'content-type': 'application/json' }, payload: big });
    expect(res.statusCode).not.toBe(413);
  });

  it(`takes ${MAX_CART_LINES} lines and refuses one more with a 400 on cart.lines`, async () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => ({ productId: String(i + 10), variantId: String(i + 10), quantity: 1, price: 1 }));
    expect((await post(shop, '?trace=false', cartOf(lines(MAX_CART_LINES)))).statusCode).toBe(200);
    const over = await post(shop, '', cartOf(lines(MAX_CART_LINES + 1)));
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual(
      errorBody('Invalid request body', 'validation', { issue: `Too many cart lines: at most ${MAX_CART_LINES}`, path: ['cart', 'lines'] }),
    );
    const simulated = await simulate(t, shop.id, { context: cartOf(lines(MAX_CART_LINES + 1)) });
    expect(simulated.statusCode).toBe(400);
    expect(simulated.json()).toMatchObject({ path: ['context', 'cart', 'lines'] });
  });

  it('bounds the trace: past the node limit a rule answers its root only, marked truncated', async () => {
    const big = await t.createShop('scale');
    // Four rules of 3,001 nodes: three fit in 10,000 nodes, the fourth does not; a small fifth still does.
    const leaves = 3000;
    const wide = (n: number) => ({ type: 'OR', children: Array.from({ length: leaves }, (_, i) => hasProduct(n * leaves + i + 10)) });
    await importCampaigns(t, big, [
      liveCampaign('Wide', [rule('W0', wide(0)), rule('W1', wide(1)), rule('W2', wide(2)), rule('W3', wide(3)), rule('Small', spend(0))]),
    ]);
    expect(3 * (leaves + 1) <= MAX_TRACE_NODES && 4 * (leaves + 1) > MAX_TRACE_NODES).toBe(true);
    const res = await post(big, '', cartOf([line({ productId: product(3 * leaves + 10) })]));
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const { results } = res.json() as Evaluation;
    expect(results.map((r) => r.trace?.children?.length)).toEqual([leaves, leaves, leaves, undefined, undefined]);
    expect(results[3]).toEqual({ ruleId: results[3]?.ruleId, campaignId: results[3]?.campaignId, matched: true, reasons: ['product_in_cart'], trace: { type: 'OR', matched: true, reasons: ['product_in_cart'], truncated: true } });
    expect(results[4]?.trace).toMatchObject({ type: 'cart.subtotal_gte', matched: true });
    expect(results[4]?.trace).not.toHaveProperty('truncated');
    // About 100 bytes per trace node at most, whatever the trees.
    expect(res.body.length).toBeLessThan(MAX_TRACE_NODES * 100);
    const lean = await post(big, '?trace=false', cartOf([line({ productId: product(3 * leaves + 10) })]));
    expect(lean.json()).toEqual(withoutTraces(res.json() as Evaluation));
  });
});
