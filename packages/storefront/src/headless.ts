/**
 * Headless storefronts (issue 10, part 5): read a Storefront API cart into the engine's
 * context, and turn the planner's operations into the platform's Storefront API cart
 * mutations (`cartLinesAdd` with `merchandiseId` and `attributes: [{ key, value }]`,
 * `cartLinesRemove` with `lineIds`, `cartLinesUpdate` for gift lines of rules that lock their
 * quantity).
 */
import { toMinorUnits } from '@gcrs/engine/planner';
import type { CartOperation, ChooseOperation, EvaluationContext } from '@gcrs/engine/planner';
import type { Shopper } from './ajax-cart.ts';
import { toGid } from './ajax-cart.ts';

type Attribute = { key: string; value: string | null };

/** A Storefront API `CartLine` with the fields this module reads (see STOREFRONT_CART_FRAGMENT). */
export type StorefrontCartLine = {
  id: string;
  quantity: number;
  merchandise: { id: string; product: { id: string } };
  cost: { amountPerQuantity: { amount: string; currencyCode: string }; totalAmount?: { amount: string; currencyCode: string } };
  attributes: Attribute[];
  sellingPlanAllocation?: { sellingPlan: { id: string } } | null;
};

/** A Storefront API `Cart` with the fields this module reads; `lines` as `nodes` or `edges`. */
export type StorefrontCart = {
  id: string;
  lines: { nodes: StorefrontCartLine[] } | { edges: Array<{ node: StorefrontCartLine }> };
  cost: { subtotalAmount: { amount: string; currencyCode: string } };
  discountCodes?: Array<{ code: string; applicable: boolean }>;
};

/** The cart fields to query so that {@link fromStorefrontCart} can read the result. */
export const STOREFRONT_CART_FRAGMENT = `fragment SvcGiftsCart on Cart {
  id
  cost { subtotalAmount { amount currencyCode } }
  discountCodes { code applicable }
  lines(first: 250) {
    nodes {
      id
      quantity
      merchandise { ... on ProductVariant { id product { id } } }
      cost { amountPerQuantity { amount currencyCode } }
      attributes { key value }
      sellingPlanAllocation { sellingPlan { id } }
    }
  }
}`;

const linesOf = (cart: StorefrontCart): StorefrontCartLine[] =>
  'nodes' in cart.lines ? cart.lines.nodes : cart.lines.edges.map((edge) => edge.node);

/**
 * The evaluation context of a Storefront API cart: decimal amounts become minor units of
 * their currency, line ids stay the cart line gids (what `cartLinesRemove` takes).
 *
 * @example planCart(compileRules(payload), fromStorefrontCart(cart, { loggedIn: false, customerTags: [] }))
 */
export function fromStorefrontCart(
  cart: StorefrontCart,
  shopper: Shopper,
  collections?: Record<string, Array<string | number>>,
): EvaluationContext {
  const currency = (shopper.currency ?? cart.cost.subtotalAmount.currencyCode).toUpperCase();
  const lines = linesOf(cart).map((line) => {
    const attributes: Record<string, string> = {};
    for (const { key, value } of line.attributes) if (value !== null) attributes[key] = value;
    const unit = line.cost.amountPerQuantity;
    return {
      id: line.id,
      productId: line.merchandise.product.id,
      variantId: line.merchandise.id,
      quantity: line.quantity,
      price: toMinorUnits(unit.amount, unit.currencyCode),
      sellingPlanId: line.sellingPlanAllocation?.sellingPlan.id ?? null,
      attributes,
    };
  });
  return {
    cart: { currency, lines, discountCodes: (cart.discountCodes ?? []).filter((code) => code.applicable).map((code) => code.code) },
    customer: { ...(shopper.customerId ? { id: shopper.customerId } : {}), loggedIn: shopper.loggedIn, tags: shopper.customerTags },
    market: shopper.market ? { handle: shopper.market, country: shopper.country ?? '' } : null,
    ...(collections === undefined ? {} : { collections: collections as EvaluationContext['collections'] }),
  };
}

/** One GraphQL request for the Storefront API: POST it as `{ query, variables }`. */
export type StorefrontMutation = { query: string; variables: Record<string, unknown> };

export const CART_LINES_ADD = `mutation cartLinesAdd($cartId: ID!, $lines: [CartLineInput!]!) {
  cartLinesAdd(cartId: $cartId, lines: $lines) { cart { id } userErrors { field message code } }
}`;
export const CART_LINES_REMOVE = `mutation cartLinesRemove($cartId: ID!, $lineIds: [ID!]!) {
  cartLinesRemove(cartId: $cartId, lineIds: $lineIds) { cart { id } userErrors { field message code } }
}`;
export const CART_LINES_UPDATE = `mutation cartLinesUpdate($cartId: ID!, $lines: [CartLineUpdateInput!]!) {
  cartLinesUpdate(cartId: $cartId, lines: $lines) { cart { id } userErrors { field message code } }
}`;

const toAttributeInputs = (attributes: Record<string, string>) => Object.entries(attributes).map(([key, value]) => ({ key, value }));

/**
 * The Storefront API mutations for a plan, to run in order: one `cartLinesRemove` for every
 * remove, one `cartLinesUpdate` for every update (a gift line of a rule that locks its
 * quantity, back to the gift's quantity), one `cartLinesAdd` for every add and every chosen
 * gift (`choices`: rule id → variant gid, or a function; a choose without a choice adds
 * nothing).
 *
 * @example
 * for (const m of toCartMutations(plan.operations, { cartId })) await storefront(m.query, m.variables);
 */
export function toCartMutations(
  operations: readonly CartOperation[],
  options: { cartId: string; choices?: Readonly<Record<string, string>> | ((operation: ChooseOperation) => string | undefined) },
): StorefrontMutation[] {
  const lineIds: string[] = [];
  const updates: Array<{ id: string; quantity: number }> = [];
  const lines: Array<{ merchandiseId: string; quantity: number; attributes: Array<{ key: string; value: string }> }> = [];
  for (const operation of operations) {
    if (operation.type === 'remove') {
      lineIds.push(operation.lineId);
    } else if (operation.type === 'update') {
      updates.push({ id: operation.lineId, quantity: operation.quantity });
    } else if (operation.type === 'add') {
      lines.push({ merchandiseId: toGid('ProductVariant', operation.variantId), quantity: operation.quantity, attributes: toAttributeInputs(operation.attributes) });
    } else {
      const choices = options.choices ?? {};
      const picked = typeof choices === 'function' ? choices(operation) : choices[operation.ruleId];
      const option = operation.options.find((candidate) => candidate.variantId === picked);
      if (option !== undefined) {
        lines.push({ merchandiseId: toGid('ProductVariant', option.variantId), quantity: option.quantity, attributes: toAttributeInputs(operation.attributes) });
      }
    }
  }
  const mutations: StorefrontMutation[] = [];
  if (lineIds.length > 0) mutations.push({ query: CART_LINES_REMOVE, variables: { cartId: options.cartId, lineIds } });
  if (updates.length > 0) mutations.push({ query: CART_LINES_UPDATE, variables: { cartId: options.cartId, lines: updates } });
  if (lines.length > 0) mutations.push({ query: CART_LINES_ADD, variables: { cartId: options.cartId, lines } });
  return mutations;
}
