import { describe, expect, it } from 'vitest';
import {
  CART_LINES_ADD,
  CART_LINES_REMOVE,
  CART_LINES_UPDATE,
  compileRules,
  fromStorefrontCart,
  planCart,
  toCartMutations,
} from '../src/index.ts';
import type { StorefrontCart, StorefrontCartLine } from '../src/index.ts';
import { subtotalPayload, variantGid } from './support/carts.ts';

const shopper = { customerTags: [], loggedIn: false };

function line(n: number, amount: string, overrides: Partial<StorefrontCartLine> = {}): StorefrontCartLine {
  return {
    id: `gid://shopify/CartLine/${n}`,
    quantity: 1,
    merchandise: { id: variantGid(n), product: { id: `gid://shopify/Product/${n * 10}` } },
    cost: { amountPerQuantity: { amount, currencyCode: 'USD' } },
    attributes: [],
    ...overrides,
  };
}

function storefrontCart(lines: StorefrontCartLine[], asEdges = false): StorefrontCart {
  return {
    id: 'gid://shopify/Cart/c1',
    lines: asEdges ? { edges: lines.map((node) => ({ node })) } : { nodes: lines },
    cost: { subtotalAmount: { amount: '0.0', currencyCode: 'USD' } },
    discountCodes: [{ code: 'SAVE', applicable: true }],
  };
}

describe('fromStorefrontCart (Storefront API cart → engine context)', () => {
  it('converts decimal amounts to minor units and attribute lists to objects', () => {
    const ctx = fromStorefrontCart(
      storefrontCart([line(1, '60.5', { quantity: 2, attributes: [{ key: 'gift_wrap', value: 'yes' }, { key: 'x', value: null }], sellingPlanAllocation: { sellingPlan: { id: 'gid://shopify/SellingPlan/3' } } })], true),
      shopper,
    );
    expect(ctx.cart).toEqual({
      currency: 'USD',
      discountCodes: ['SAVE'],
      lines: [
        {
          id: 'gid://shopify/CartLine/1',
          productId: 'gid://shopify/Product/10',
          variantId: variantGid(1),
          quantity: 2,
          price: 6050,
          sellingPlanId: 'gid://shopify/SellingPlan/3',
          attributes: { gift_wrap: 'yes' },
        },
      ],
    });
  });
});

describe('toCartMutations (operations → Storefront API cart mutations)', () => {
  const cartId = 'gid://shopify/Cart/c1';

  it('adds the gift with cartLinesAdd: merchandiseId gid and attributes as [{ key, value }]', () => {
    const ctx = fromStorefrontCart(storefrontCart([line(1, '60.00')]), shopper);
    const { operations } = planCart(compileRules(subtotalPayload()), ctx);
    expect(toCartMutations(operations, { cartId })).toEqual([
      {
        query: CART_LINES_ADD,
        variables: {
          cartId,
          lines: [
            {
              merchandiseId: variantGid(9001),
              quantity: 1,
              attributes: [
                { key: '_svc_campaign_id', value: 'cmp_r1' },
                { key: '_svc_rule_id', value: 'r1' },
                { key: '_svc_auto', value: 'true' },
                { key: '_svc_discount_method', value: 'automatic' },
                { key: '_svc_title', value: 'Tote bag' },
                { key: '_svc_lock_quantity', value: 'true' },
              ],
            },
          ],
        },
      },
    ]);
    expect(CART_LINES_ADD).toContain('cartLinesAdd(cartId: $cartId, lines: $lines)');
    expect(CART_LINES_ADD).toContain('$lines: [CartLineInput!]!');
  });

  it('removes a gift line whose rule no longer matches with cartLinesRemove by line id, before any add', () => {
    const gift = line(9001, '0.00', { attributes: [{ key: '_svc_campaign_id', value: 'cmp_r1' }, { key: '_svc_rule_id', value: 'r1' }] });
    const ctx = fromStorefrontCart(storefrontCart([line(1, '1.00'), gift]), shopper);
    const { operations } = planCart(compileRules(subtotalPayload()), ctx);
    expect(toCartMutations(operations, { cartId })).toEqual([{ query: CART_LINES_REMOVE, variables: { cartId, lineIds: ['gid://shopify/CartLine/9001'] } }]);
    expect(CART_LINES_REMOVE).toContain('cartLinesRemove(cartId: $cartId, lineIds: $lineIds)');
  });

  it('adds only the chosen gift of a customer-choice rule, and nothing without a choice', () => {
    const payload = subtotalPayload({
      options: { actionType: 'customer_choice' },
      giftConfig: { type: 'fixed', gifts: [{ variantId: variantGid(7), quantity: 1 }, { variantId: variantGid(8), quantity: 2 }] },
    });
    const { operations } = planCart(compileRules(payload), fromStorefrontCart(storefrontCart([line(1, '60.00')]), shopper));
    expect(toCartMutations(operations, { cartId })).toEqual([]);
    const [mutation] = toCartMutations(operations, { cartId, choices: { r1: variantGid(8) } });
    expect(mutation?.variables.lines).toEqual([
      {
        merchandiseId: variantGid(8),
        quantity: 2,
        attributes: [
          { key: '_svc_campaign_id', value: 'cmp_r1' },
          { key: '_svc_rule_id', value: 'r1' },
          { key: '_svc_discount_method', value: 'automatic' },
          { key: '_svc_title', value: 'Free gift' },
        ],
      },
    ]);
    expect(toCartMutations(operations, { cartId, choices: () => variantGid(999) })).toEqual([]);
  });

  it('puts a locked gift line back to its quantity with cartLinesUpdate, between the removes and the adds', () => {
    const raised = line(9001, '0.00', { quantity: 3, attributes: [{ key: '_svc_campaign_id', value: 'cmp_r1' }, { key: '_svc_rule_id', value: 'r1' }] });
    const duplicate = line(9002, '0.00', { attributes: [{ key: '_svc_campaign_id', value: 'cmp_r1' }, { key: '_svc_rule_id', value: 'r1' }] });
    const ctx = fromStorefrontCart(storefrontCart([line(1, '60.00', { quantity: 3 }), raised, duplicate]), shopper);
    const { operations } = planCart(compileRules(subtotalPayload()), ctx);
    expect(toCartMutations(operations, { cartId })).toEqual([
      { query: CART_LINES_REMOVE, variables: { cartId, lineIds: ['gid://shopify/CartLine/9002'] } },
      { query: CART_LINES_UPDATE, variables: { cartId, lines: [{ id: 'gid://shopify/CartLine/9001', quantity: 1 }] } },
    ]);
    expect(CART_LINES_UPDATE).toContain('cartLinesUpdate(cartId: $cartId, lines: $lines)');
  });
});
