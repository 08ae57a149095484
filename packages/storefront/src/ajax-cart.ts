/**
 * The platform's AJAX Cart API shapes the script reads (`GET /cart.js`) and the mapping of
 * such a cart to the engine's evaluation context (CONTRACT "Storefront").
 */
import type { EvaluationContext } from '@gcrs/engine/planner';

/** One `items[]` entry of `GET /cart.js` (the fields the script reads). */
export type AjaxCartItem = {
  /** The line key, e.g. `"39897499729985:3c1b…"`: what `/cart/change.js` takes as `id`. */
  key: string;
  /** The numeric variant id. */
  id: number | string;
  product_id: number | string;
  quantity: number;
  /** Unit price in minor units. */
  price: number;
  /** Unit price after line-level discounts, in minor units. */
  final_price?: number;
  discounted_price?: number;
  /** Line properties (the platform's name for line attributes); values may be non-strings or null. */
  properties?: Record<string, unknown> | null;
  selling_plan_allocation?: { selling_plan?: { id?: number | string } | null } | null;
  title?: string;
  product_title?: string;
};

/** `GET /cart.js` (the fields the script reads). */
export type AjaxCart = {
  token?: string;
  currency?: string;
  items: AjaxCartItem[];
  discount_codes?: Array<{ code: string; applicable?: boolean }>;
};

/** What the theme says about the shopper (the `data-*` of the script tag). */
export type Shopper = {
  currency?: string | undefined;
  market?: string | undefined;
  country?: string | undefined;
  customerId?: string | undefined;
  customerTags: string[];
  loggedIn: boolean;
};

/**
 * Line properties as attributes: strings as they are, numbers and booleans as text, `null`
 * (an unset property) left out, objects as JSON.
 *
 * @example lineAttributes({ _svc_campaign_id: 'cmp_1', Engraving: null }) // { _svc_campaign_id: 'cmp_1' }
 */
export function lineAttributes(properties: AjaxCartItem['properties']): Record<string, string> {
  const attributes: Record<string, string> = {};
  if (properties === null || properties === undefined) return attributes;
  for (const [key, value] of Object.entries(properties)) {
    if (value === null || value === undefined) continue;
    attributes[key] = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
  return attributes;
}

const PLATFORM = 'shopify';

/** A numeric platform id as a gid of `type`; a gid stays as it is. */
export function toGid(type: string, id: number | string): string {
  const text = String(id);
  return text.startsWith('gid://') ? text : `gid://${PLATFORM}/${type}/${text}`;
}

/** The trailing digits of a gid or numeric id, as a number (what `/cart/add.js` takes). */
export function toNumericId(id: string | number): number {
  const match = /(\d+)$/.exec(String(id));
  return match ? Number(match[1]) : Number.NaN;
}

/**
 * The evaluation context for an AJAX cart. Every line goes in, gift lines included: the
 * engine leaves gift lines out of every condition (SPEC), and the planner needs them to
 * remove a gift whose rule no longer matches. A line's `id` is its key.
 *
 * @example toEvaluationContext(await (await fetch('/cart.js')).json(), shopper, payload.collections)
 */
export function toEvaluationContext(
  cart: AjaxCart,
  shopper: Shopper,
  collections?: Record<string, Array<string | number>>,
): EvaluationContext {
  const currency = (shopper.currency || cart.currency || '').toUpperCase();
  const lines = cart.items.map((item) => {
    const planId = item.selling_plan_allocation?.selling_plan?.id;
    const discounted = item.final_price ?? item.discounted_price;
    return {
      id: item.key,
      productId: toGid('Product', item.product_id),
      variantId: toGid('ProductVariant', item.id),
      quantity: item.quantity,
      price: item.price,
      ...(discounted === undefined ? {} : { discountedPrice: discounted }),
      sellingPlanId: planId === undefined || planId === null ? null : toGid('SellingPlan', planId),
      attributes: lineAttributes(item.properties),
    };
  });
  const codes = (cart.discount_codes ?? []).filter((entry) => entry.applicable !== false).map((entry) => entry.code);
  return {
    cart: { currency, lines, discountCodes: codes },
    customer: {
      ...(shopper.customerId ? { id: shopper.customerId } : {}),
      loggedIn: shopper.loggedIn,
      tags: shopper.customerTags,
    },
    market: shopper.market ? { handle: shopper.market, country: shopper.country ?? '' } : null,
    ...(collections === undefined ? {} : { collections: collections as EvaluationContext['collections'] }),
  };
}

/**
 * What identifies a cart's state for the no-loop memory: currency and the non-gift lines
 * (variant × quantity, sorted). Gift lines are left out so that removing or adding a gift
 * does not make a refused add look new.
 *
 * @example cartStateKey(cart) // 'USD|111x2|222x1'
 */
export function cartStateKey(cart: AjaxCart): string {
  const lines = cart.items
    .filter((item) => !isGiftItem(item))
    .map((item) => `${item.id}x${item.quantity}`)
    .sort();
  return [cart.currency ?? '', ...lines].join('|');
}

/** A line carrying `_svc_campaign_id` is a gift line (SPEC). */
export function isGiftItem(item: AjaxCartItem): boolean {
  const value = item.properties?._svc_campaign_id;
  return typeof value === 'string';
}

/**
 * The non-gift subtotal in minor units (what a progress bar measures).
 *
 * @example merchandiseSubtotal({ items: [{ price: 500, quantity: 2, ... }] }) // 1000
 */
export function merchandiseSubtotal(cart: AjaxCart, useDiscountedPrices = false): number {
  let total = 0;
  for (const item of cart.items) {
    if (isGiftItem(item)) continue;
    const unit = useDiscountedPrices ? (item.final_price ?? item.discounted_price ?? item.price) : item.price;
    total += unit * item.quantity;
  }
  return total;
}
