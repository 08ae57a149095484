/**
 * The carts of the stand-in: the platform's AJAX Cart API semantics (`/cart.js`, `/cart/add.js`,
 * `/cart/change.js`, `/cart/update.js`, `/cart/clear.js`) on an in-memory store, with the
 * platform's JSON shapes: amounts in minor units, `properties` on each line, line `key`s of the
 * form `<variant id>:<hash of properties and selling plan>`, the newest line first, and
 * `{ status, message, description }` errors (422 when stock refuses an add).
 *
 * Every operation is all-or-nothing: a refused add leaves the cart as it was (what the
 * platform does for the `items` form).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FixtureProduct, FixtureVariant, StorefrontFixture } from './fixture.ts';
import { indexVariants } from './fixture.ts';

export type CartLine = {
  variantId: number;
  quantity: number;
  properties: Record<string, string>;
  sellingPlanId: number | null;
};

export type Cart = { token: string; lines: CartLine[]; note: string | null; attributes: Record<string, string> };

export type CartError = { status: 400 | 404 | 422; message: 'Cart Error'; description: string };

export type CartOutcome<T> = { ok: true; value: T } | { ok: false; error: CartError };

export type AddItem = { id: number; quantity: number; properties: Record<string, string>; sellingPlanId: number | null };

const cartError = (status: CartError['status'], description: string): { ok: false; error: CartError } => ({
  ok: false,
  error: { status, message: 'Cart Error', description },
});

/** The platform's line key: the variant id, then a digest of what splits lines of one variant. */
export function lineKey(line: Pick<CartLine, 'variantId' | 'properties' | 'sellingPlanId'>): string {
  const sorted = Object.fromEntries(Object.entries(line.properties).sort(([a], [b]) => a.localeCompare(b)));
  const digest = createHash('md5').update(JSON.stringify([sorted, line.sellingPlanId])).digest('hex');
  return `${line.variantId}:${digest}`;
}

/** The cart store and its JSON views; `inventory` is live, so a test can sell a variant out. */
export class CartStore {
  readonly #carts = new Map<string, Cart>();
  readonly #variants: Map<number, { product: FixtureProduct; variant: FixtureVariant }>;
  readonly #currency: string;

  constructor(fixture: StorefrontFixture) {
    // A copy: tests change stock on their own stand-in without touching the shared fixture.
    this.#variants = new Map(
      [...indexVariants(fixture)].map(([id, entry]) => [id, { product: entry.product, variant: { ...entry.variant } }]),
    );
    this.#currency = fixture.currency;
  }

  /** The cart of a token, created empty when the token is unknown or absent. */
  cartFor(token: string | undefined): Cart {
    const existing = token === undefined ? undefined : this.#carts.get(token);
    if (existing) return existing;
    const cart: Cart = { token: `c1-${randomBytes(16).toString('hex')}`, lines: [], note: null, attributes: {} };
    this.#carts.set(cart.token, cart);
    return cart;
  }

  setInventory(variantId: number, inventoryQuantity: number): void {
    const entry = this.#variants.get(variantId);
    if (!entry) throw new Error(`unknown variant ${variantId}`);
    entry.variant.inventoryQuantity = inventoryQuantity;
  }

  /** POST /cart/add.js: the lines added (with their new quantities), or the refusal. */
  add(cart: Cart, items: AddItem[]): CartOutcome<CartLine[]> {
    const next = cart.lines.map((line) => ({ ...line }));
    const touched: CartLine[] = [];
    for (const item of items) {
      const entry = this.#variants.get(item.id);
      if (!entry || entry.product.status !== 'active') return cartError(404, 'Cannot find variant');
      if (item.sellingPlanId !== null && !entry.product.sellingPlans?.some((plan) => plan.id === item.sellingPlanId)) {
        return cartError(422, 'Selling plan is not available for this variant');
      }
      if (item.quantity < 1) continue;
      const key = lineKey({ variantId: item.id, properties: item.properties, sellingPlanId: item.sellingPlanId });
      let line = next.find((candidate) => lineKey(candidate) === key);
      const inCart = next.filter((candidate) => candidate.variantId === item.id).reduce((sum, l) => sum + l.quantity, 0);
      const refusal = this.#stockRefusal(entry, inCart, inCart + item.quantity);
      if (refusal) return refusal;
      if (line) line.quantity += item.quantity;
      else {
        line = { variantId: item.id, quantity: item.quantity, properties: { ...item.properties }, sellingPlanId: item.sellingPlanId };
        // The platform lists the newest line first.
        next.unshift(line);
      }
      touched.push(line);
    }
    cart.lines = next;
    return { ok: true, value: touched };
  }

  /**
   * POST /cart/change.js: `id` is a line key, or a variant id (its first line); `line` is the
   * 1-based line index. Quantity 0 removes the line; `properties`, when given, replace the line's.
   */
  change(cart: Cart, target: { id?: string | number; line?: number }, quantity: number | undefined, properties?: Record<string, string>): CartOutcome<Cart> {
    const index = this.#findLine(cart, target);
    if (index === undefined) return cartError(400, 'no valid id or line parameter');
    const line = cart.lines[index];
    if (!line) return cartError(400, 'no valid id or line parameter');
    const newQuantity = quantity ?? line.quantity;
    const entry = this.#variants.get(line.variantId);
    if (entry && newQuantity > line.quantity) {
      const inCart = cart.lines.filter((l) => l.variantId === line.variantId).reduce((sum, l) => sum + l.quantity, 0);
      const refusal = this.#stockRefusal(entry, inCart, inCart - line.quantity + newQuantity);
      if (refusal) return refusal;
    }
    const next = cart.lines.map((l) => ({ ...l }));
    if (newQuantity <= 0) next.splice(index, 1);
    else {
      const changed = next[index];
      if (changed) {
        changed.quantity = newQuantity;
        if (properties) changed.properties = { ...properties };
      }
    }
    cart.lines = mergeSameKeys(next);
    return { ok: true, value: cart };
  }

  /**
   * POST /cart/update.js: `updates` maps a line key or variant id to a quantity (a variant not
   * in the cart is added), or is an array of quantities by line order.
   */
  update(cart: Cart, updates: Record<string, number> | number[], note?: string, attributes?: Record<string, string>): CartOutcome<Cart> {
    const before = cart.lines.map((line) => ({ ...line }));
    const entries: [string | number, number][] = Array.isArray(updates)
      ? updates.map((quantity, index) => [index, quantity])
      : Object.entries(updates);
    for (const [target, quantity] of entries) {
      const index = typeof target === 'number' ? (target < cart.lines.length ? target : undefined) : this.#findLine(cart, { id: target });
      if (index !== undefined) {
        const outcome = this.change(cart, { line: index + 1 }, quantity);
        if (!outcome.ok) return ((cart.lines = before), outcome);
      } else if (quantity > 0 && /^\d+$/.test(String(target))) {
        const outcome = this.add(cart, [{ id: Number(target), quantity, properties: {}, sellingPlanId: null }]);
        if (!outcome.ok) return ((cart.lines = before), outcome);
      }
    }
    if (note !== undefined) cart.note = note;
    if (attributes) cart.attributes = { ...cart.attributes, ...attributes };
    return { ok: true, value: cart };
  }

  clear(cart: Cart): Cart {
    cart.lines = [];
    return cart;
  }

  /** GET /cart.js: the cart as the platform writes it. */
  cartJson(cart: Cart) {
    const items = cart.lines.map((line) => this.lineJson(line));
    const total = items.reduce((sum, item) => sum + item.final_line_price, 0);
    return {
      token: cart.token,
      note: cart.note,
      attributes: cart.attributes,
      original_total_price: items.reduce((sum, item) => sum + item.original_line_price, 0),
      total_price: total,
      total_discount: 0,
      total_weight: 0,
      item_count: items.reduce((sum, item) => sum + item.quantity, 0),
      items,
      requires_shipping: items.length > 0,
      currency: this.#currency,
      items_subtotal_price: total,
      cart_level_discount_applications: [],
    };
  }

  /** One line item as the platform writes it (`selling_plan_allocation` only on subscription lines). */
  lineJson(line: CartLine) {
    const entry = this.#variants.get(line.variantId);
    if (!entry) throw new Error(`line of unknown variant ${line.variantId}`);
    const { product, variant } = entry;
    const plan = line.sellingPlanId === null ? undefined : product.sellingPlans?.find((p) => p.id === line.sellingPlanId);
    const unitPrice = plan ? Math.round((variant.price * (100 - plan.discountPercent)) / 100) : variant.price;
    const defaultVariant = product.variants.length === 1 && variant.title === 'Default Title';
    return {
      id: variant.id,
      properties: line.properties,
      quantity: line.quantity,
      variant_id: variant.id,
      key: lineKey(line),
      title: defaultVariant ? product.title : `${product.title} - ${variant.title}`,
      price: unitPrice,
      original_price: unitPrice,
      discounted_price: unitPrice,
      line_price: unitPrice * line.quantity,
      original_line_price: unitPrice * line.quantity,
      total_discount: 0,
      discounts: [],
      sku: `SKU-${variant.id}`,
      grams: 0,
      vendor: 'Demo Gifts',
      taxable: true,
      product_id: product.id,
      product_has_only_default_variant: defaultVariant,
      gift_card: false,
      final_price: unitPrice,
      final_line_price: unitPrice * line.quantity,
      url: `/products/${product.handle}?variant=${variant.id}`,
      featured_image: null,
      image: null,
      handle: product.handle,
      requires_shipping: true,
      product_type: '',
      product_title: product.title,
      product_description: '',
      variant_title: defaultVariant ? null : variant.title,
      variant_options: [variant.title],
      options_with_values: [{ name: defaultVariant ? 'Title' : 'Size', value: variant.title }],
      line_level_discount_allocations: [],
      line_level_total_discount: 0,
      ...(plan
        ? {
            selling_plan_allocation: {
              price: unitPrice,
              compare_at_price: variant.price,
              per_delivery_price: unitPrice,
              selling_plan: { id: plan.id, name: plan.name, options: [], recurring_deliveries: true },
            },
          }
        : {}),
    };
  }

  #findLine(cart: Cart, target: { id?: string | number; line?: number }): number | undefined {
    if (target.line !== undefined) return target.line >= 1 && target.line <= cart.lines.length ? target.line - 1 : undefined;
    if (target.id === undefined) return undefined;
    const id = String(target.id);
    const index = id.includes(':')
      ? cart.lines.findIndex((line) => lineKey(line) === id)
      : cart.lines.findIndex((line) => String(line.variantId) === id);
    return index === -1 ? undefined : index;
  }

  #stockRefusal(entry: { product: FixtureProduct; variant: FixtureVariant }, inCart: number, wanted: number): { ok: false; error: CartError } | undefined {
    const { product, variant } = entry;
    if (variant.inventoryPolicy === 'CONTINUE' || wanted <= variant.inventoryQuantity) return undefined;
    const name = variant.title === 'Default Title' ? product.title : `${product.title} - ${variant.title}`;
    if (variant.inventoryQuantity <= 0) return cartError(422, `The product '${name}' is already sold out.`);
    if (inCart >= variant.inventoryQuantity) return cartError(422, 'The maximum quantity of this item is already in your cart.');
    return cartError(422, `You can't add more ${name} to the cart.`);
  }
}

/** Lines whose properties became equal after a change are one line, as on the platform. */
function mergeSameKeys(lines: CartLine[]): CartLine[] {
  const merged: CartLine[] = [];
  for (const line of lines) {
    const same = merged.find((candidate) => lineKey(candidate) === lineKey(line));
    if (same) same.quantity += line.quantity;
    else merged.push(line);
  }
  return merged;
}
