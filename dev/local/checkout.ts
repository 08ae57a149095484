/**
 * The stand-in checkout of `npm run dev:local` (docs/storefront-dev.md "The whole way
 * locally"): what the platform does when a shopper checks out the stand-in storefront's cart.
 *
 * 1. The gift-discount function's input is built from the cart as its input query
 *    (extensions/gift-discount/src/cart_lines_discounts_generate_run.graphql) asks for it:
 *    lines with their price, variant, product and collection membership (of the `$collectionIds`
 *    the service wrote in the discount's `vars` metafield), the `_svc_*` attributes, the buyer's
 *    `hasTags` of `$tags` and redemption metafield, the country, and the discount's `config`
 *    metafield — read from the stand-in platform, where the service's discount sync wrote it.
 * 2. The function's module (built by the project's build, `buildFunction`) runs in QuickJS as
 *    the platform's runtime runs it (dev/checkout/quickjs-function.ts), and its output's
 *    candidates are applied to the lines (`selectionStrategy` ALL: every candidate).
 * 3. The order is sent to the service as `orders/paid`, with the platform's payload shape and
 *    signature (dev/platform/webhooks.ts).
 */
import type { GiftFunctionInput, GiftFunctionLine, GiftFunctionResult } from '@gcrs/engine/checkout';
import type { PlatformStandin } from '../platform/platform.ts';
import { webhookHeaders } from '../platform/webhooks.ts';
import { gid } from '../storefront/fixture.ts';
import type { FixtureCustomer, StorefrontFixture } from '../storefront/fixture.ts';
import type { CartJson } from '../storefront/server.ts';

export type FunctionRunner = { run(input: unknown): unknown };

export type CheckoutDeps = {
  fixture: StorefrontFixture;
  platform: PlatformStandin;
  serviceUrl: string;
  appSecret: string;
  fn: FunctionRunner;
};

/** What one checkout did, shown on the checkout page and printed by `dev:local`. */
export type CheckoutOutcome =
  | { completed: false; reason: string }
  | { completed: true; input: GiftFunctionInput; output: GiftFunctionResult; order: Record<string, unknown>; discountCents: number; totalCents: number; webhookStatus: number; webhookBody: string };

const decimal = (minor: number) => (minor / 100).toFixed(2);
const lineGid = (index: number) => `gid://shopify/CartLine/${index + 1}`;
/** The platform's order ids: 64-bit numbers; these stay safe integers. */
let nextOrderId = 5_000_000_000 + Math.floor(Math.random() * 1_000_000) * 1000;

function metafieldOf(platform: PlatformStandin, domain: string, owner: string, key: string): string | undefined {
  return platform.discounts.metafields.get(domain)?.get(`${owner} $app:gifts.${key}`);
}

/** The function's input for this cart (step 1). */
export function functionInputOf(deps: CheckoutDeps, cart: CartJson, customer: FixtureCustomer | null, discount: { id: string; discountClasses: string[] }): GiftFunctionInput {
  const { fixture, platform } = deps;
  const config = metafieldOf(platform, fixture.shopDomain, discount.id, 'config');
  const config2 = metafieldOf(platform, fixture.shopDomain, discount.id, 'config2');
  const vars = JSON.parse(metafieldOf(platform, fixture.shopDomain, discount.id, 'vars') ?? '{}') as { tags?: string[]; collectionIds?: string[] };
  const lines: GiftFunctionLine[] = cart.items.map((item, index) => {
    const attribute = (key: string) => (item.properties[key] === undefined ? null : { value: item.properties[key] });
    const plan = (item as { selling_plan_allocation?: { selling_plan: { id: number } } }).selling_plan_allocation;
    return {
      id: lineGid(index),
      quantity: item.quantity,
      cost: { amountPerQuantity: { amount: decimal(item.price), currencyCode: cart.currency } },
      merchandise: {
        __typename: 'ProductVariant',
        id: gid('ProductVariant', item.variant_id),
        product: {
          id: gid('Product', item.product_id),
          inCollections: (vars.collectionIds ?? []).map((collectionId) => ({
            collectionId,
            isMember: fixture.collections.some((c) => gid('Collection', c.id) === collectionId && c.productIds.includes(item.product_id)),
          })),
        },
      },
      sellingPlanAllocation: plan ? { sellingPlan: { id: gid('SellingPlan', plan.selling_plan.id) } } : null,
      campaignId: attribute('_svc_campaign_id'),
      ruleId: attribute('_svc_rule_id'),
    };
  });
  const customerGid = customer ? `gid://shopify/Customer/${customer.id}` : undefined;
  const redemptions = customerGid === undefined ? undefined : metafieldOf(platform, fixture.shopDomain, customerGid, 'redemptions');
  return {
    cart: {
      lines,
      buyerIdentity: customer
        ? {
            isAuthenticated: true,
            customer: { id: customerGid ?? '', hasTags: (vars.tags ?? []).map((tag) => ({ tag, hasTag: customer.tags.includes(tag) })), metafield: redemptions === undefined ? null : { value: redemptions } },
          }
        : null,
    },
    localization: { country: { isoCode: fixture.market.country } },
    presentmentCurrencyRate: '1.0',
    discount: {
      discountClasses: discount.discountClasses,
      metafield: config === undefined ? null : { jsonValue: JSON.parse(config) as unknown },
      config2: config2 === undefined ? null : { jsonValue: JSON.parse(config2) as unknown },
    },
  };
}

/** Each line's discount in minor units, from the function's candidates (step 2). */
export function lineDiscounts(cart: CartJson, output: GiftFunctionResult): number[] {
  const discounts = cart.items.map(() => 0);
  for (const operation of output.operations) {
    for (const candidate of operation.productDiscountsAdd.candidates) {
      for (const { cartLine } of candidate.targets) {
        const index = Number(cartLine.id.split('/').pop()) - 1;
        const item = cart.items[index];
        if (item === undefined) continue;
        const quantity = Math.min(cartLine.quantity, item.quantity);
        const off = 'percentage' in candidate.value
          ? Math.round((item.price * quantity * Number(candidate.value.percentage.value)) / 100)
          : Math.min(item.price, Math.round(Number(candidate.value.fixedAmount.amount) * 100)) * quantity;
        discounts[index] = Math.min(item.price * item.quantity, (discounts[index] ?? 0) + off);
      }
    }
  }
  return discounts;
}

/** Steps 1–3 for one cart. */
export async function checkOut(deps: CheckoutDeps, cart: CartJson, customer: FixtureCustomer | null): Promise<CheckoutOutcome> {
  if (cart.items.length === 0) return { completed: false, reason: 'The cart is empty.' };
  const discount = deps.platform.discounts.discounts.get(deps.fixture.shopDomain)?.[0];
  if (discount === undefined) return { completed: false, reason: 'The shop has no automatic app discount on the platform yet: install the app first (its discount_sync job creates it).' };
  const input = functionInputOf(deps, cart, customer, discount);
  const output = deps.fn.run(input) as GiftFunctionResult;
  const discounts = lineDiscounts(cart, output);
  const discountCents = discounts.reduce((sum, n) => sum + n, 0);
  const totalCents = cart.items.reduce((sum, item) => sum + item.price * item.quantity, 0) - discountCents;
  const now = new Date().toISOString();
  const order = {
    id: nextOrderId++,
    currency: cart.currency,
    total_price: decimal(totalCents),
    total_discounts: decimal(discountCents),
    created_at: now,
    processed_at: now,
    financial_status: 'paid',
    customer: customer ? { id: customer.id } : null,
    line_items: cart.items.map((item, index) => ({
      product_id: item.product_id,
      variant_id: item.variant_id,
      title: item.title,
      quantity: item.quantity,
      price: decimal(item.price),
      total_discount: decimal(discounts[index] ?? 0),
      properties: Object.entries(item.properties).map(([name, value]) => ({ name, value })),
    })),
  };
  const body = JSON.stringify(order);
  const response = await fetch(`${deps.serviceUrl}/webhooks/platform`, { method: 'POST', headers: webhookHeaders(deps.appSecret, 'orders/paid', deps.fixture.shopDomain, body), body });
  return { completed: true, input, output, order, discountCents, totalCents, webhookStatus: response.status, webhookBody: await response.text() };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The checkout page: the function's output, the order, and what the service answered to `orders/paid`. */
export function checkoutPage(outcome: CheckoutOutcome): string {
  const json = (value: unknown) => escapeHtml(JSON.stringify(value, null, 2));
  const body = outcome.completed
    ? `<h1>Order placed</h1>
<p>Total <strong id="order-total">$${decimal(outcome.totalCents)}</strong>, discount <strong id="order-discount">$${decimal(outcome.discountCents)}</strong>.
<code>orders/paid</code> sent to the service: <strong id="webhook-status">${outcome.webhookStatus}</strong></p>
<h2>The gift-discount function's output</h2><pre id="function-output">${json(outcome.output)}</pre>
<h2>orders/paid</h2><pre id="order">${json(outcome.order)}</pre>
<h2>The function's input</h2><pre id="function-input">${json(outcome.input)}</pre>`
    : `<h1>Checkout refused</h1><p id="checkout-error">${escapeHtml(outcome.reason)}</p>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Checkout</title></head><body>${body}<p><a href="/">Back to the store</a></p></body></html>`;
}
