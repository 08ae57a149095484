import { numericIdOf } from '../ids.ts';
import type { CartLine, EvaluationContext } from '../schema/evaluation-context.ts';

/** The line attribute that marks a gift line (SPEC, gift line attributes). */
export const GIFT_CAMPAIGN_ATTRIBUTE = '_svc_campaign_id';
/** Fallback collection membership of a line: comma-separated handles or ids. */
export const COLLECTIONS_ATTRIBUTE = '_collections';

export type EvaluationOptions = {
  /** The shop's base currency (CONTRACT: the shop's `currency`). */
  baseCurrency: string;
  /** shopSettings.engine.useDiscountedPrices: use `discountedPrice` where given. */
  useDiscountedPrices?: boolean;
};

/** A non-gift cart line with its ids reduced to numeric strings once. */
export type PreparedLine = {
  productId: string | undefined;
  variantId: string | undefined;
  quantity: number;
  /** Numeric selling plan id; undefined for a one-time purchase. */
  sellingPlanId: string | undefined;
  hasSellingPlan: boolean;
  attributes: Readonly<Record<string, string>> | undefined;
  /** From `_collections`: lowercased handles and numeric ids. */
  collectionHandles: ReadonlySet<string>;
  collectionIds: ReadonlySet<string>;
};

/**
 * Every per-context fact a leaf needs, computed once per evaluation context so that
 * evaluating many rules re-derives nothing. Gift lines are already left out.
 */
export type PreparedContext = {
  readonly kind: 'prepared-context';
  currency: string;
  baseCurrency: string;
  /** Lowercased active market handle. */
  marketHandle: string | undefined;
  /** Uppercased market country. */
  country: string | undefined;
  lines: readonly PreparedLine[];
  subtotal: number;
  total: number;
  itemCount: number;
  productIds: ReadonlySet<string>;
  variantIds: ReadonlySet<string>;
  hasSubscriptionLine: boolean;
  /** Uppercased, trimmed, non-empty codes. */
  discountCodes: ReadonlySet<string>;
  loggedIn: boolean;
  /** Lowercased, trimmed tags of the logged-in customer. */
  customerTags: ReadonlySet<string>;
  /** The context's collection map, split by key kind: numeric id, or lowercased handle. */
  collectionsById: ReadonlyMap<string, ReadonlySet<string>>;
  collectionsByHandle: ReadonlyMap<string, ReadonlySet<string>>;
};

const EMPTY_SET: ReadonlySet<string> = new Set();

/**
 * Whether a cart line is a gift line (carries `_svc_campaign_id`).
 *
 * @example isGiftLine({ attributes: { _svc_campaign_id: 'cmp_1' } }) // true
 */
export function isGiftLine(line: { attributes?: Readonly<Record<string, string>> | undefined }): boolean {
  const attributes = line.attributes;
  return (
    attributes !== undefined &&
    attributes !== null &&
    Object.hasOwn(attributes, GIFT_CAMPAIGN_ATTRIBUTE) &&
    typeof attributes[GIFT_CAMPAIGN_ATTRIBUTE] === 'string'
  );
}

/**
 * Computes the per-context facts once; pass the result instead of the raw context to
 * evaluate many trees against one cart.
 *
 * @example
 * const prepared = prepareContext(ctx, { baseCurrency: 'USD' });
 * rules.map((rule) => evaluateCondition(rule.conditionTree, prepared, options));
 */
export function prepareContext(ctx: EvaluationContext, options: EvaluationOptions): PreparedContext {
  const cart = ctx.cart;
  const lines: PreparedLine[] = [];
  const productIds = new Set<string>();
  const variantIds = new Set<string>();
  let subtotal = 0;
  let itemCount = 0;
  let hasSubscriptionLine = false;
  for (const line of cart.lines) {
    if (isGiftLine(line)) continue;
    const prepared = prepareLine(line);
    lines.push(prepared);
    if (prepared.productId !== undefined) productIds.add(prepared.productId);
    if (prepared.variantId !== undefined) variantIds.add(prepared.variantId);
    if (prepared.hasSellingPlan) hasSubscriptionLine = true;
    const unitPrice =
      options.useDiscountedPrices === true && typeof line.discountedPrice === 'number'
        ? line.discountedPrice
        : line.price;
    subtotal += unitPrice * line.quantity;
    itemCount += line.quantity;
  }
  const customer = ctx.customer;
  const loggedIn = customer?.loggedIn === true;
  const { byId, byHandle } = indexCollections(ctx.collections);
  return {
    kind: 'prepared-context',
    currency: normaliseCurrency(cart.currency),
    baseCurrency: normaliseCurrency(options.baseCurrency),
    marketHandle: ctx.market?.handle?.trim().toLowerCase(),
    country: ctx.market?.country?.trim().toUpperCase(),
    lines,
    subtotal,
    total: subtotal + finiteOrZero(cart.shipping) + finiteOrZero(cart.tax),
    itemCount,
    productIds,
    variantIds,
    hasSubscriptionLine,
    discountCodes: normalisedSet(cart.discountCodes, (code) => code.toUpperCase()),
    loggedIn,
    customerTags: loggedIn ? normalisedSet(customer?.tags, (tag) => tag.toLowerCase()) : EMPTY_SET,
    collectionsById: byId,
    collectionsByHandle: byHandle,
  };
}

/** Currency codes compare case-insensitively. */
export function normaliseCurrency(code: string | undefined): string {
  return typeof code === 'string' ? code.trim().toUpperCase() : '';
}

function finiteOrZero(amount: number | undefined): number {
  return typeof amount === 'number' && Number.isFinite(amount) ? amount : 0;
}

function prepareLine(line: CartLine): PreparedLine {
  const plan = line.sellingPlanId;
  const hasSellingPlan = plan !== undefined && plan !== null && plan !== '';
  const attributes = line.attributes ?? undefined;
  const handles = new Set<string>();
  const ids = new Set<string>();
  const raw = attributes !== undefined && Object.hasOwn(attributes, COLLECTIONS_ATTRIBUTE) ? attributes[COLLECTIONS_ATTRIBUTE] : undefined;
  if (typeof raw === 'string') {
    for (const token of raw.split(',')) addCollectionKey(token, handles, ids);
  }
  return {
    productId: numericIdOf(line.productId),
    variantId: numericIdOf(line.variantId),
    quantity: typeof line.quantity === 'number' && Number.isFinite(line.quantity) ? line.quantity : 0,
    sellingPlanId: hasSellingPlan ? numericIdOf(plan) : undefined,
    hasSellingPlan,
    attributes,
    collectionHandles: handles.size === 0 ? EMPTY_SET : handles,
    collectionIds: ids.size === 0 ? EMPTY_SET : ids,
  };
}

/** A collection reference is a numeric id (digits or gid) or else a lowercased handle. */
export function addCollectionKey(token: string, handles: Set<string>, ids: Set<string>): void {
  const trimmed = token.trim();
  if (trimmed === '') return;
  const id = numericIdOf(trimmed);
  if (id !== undefined) ids.add(id);
  else handles.add(trimmed.toLowerCase());
}

function indexCollections(collections: EvaluationContext['collections']) {
  const byId = new Map<string, Set<string>>();
  const byHandle = new Map<string, Set<string>>();
  if (collections === undefined || collections === null) return { byId, byHandle };
  for (const key of Object.keys(collections)) {
    const products = collections[key];
    if (!Array.isArray(products)) continue;
    const trimmed = key.trim();
    const id = numericIdOf(trimmed);
    const index = id === undefined ? byHandle : byId;
    const name = id ?? trimmed.toLowerCase();
    // Two keys naming one collection (its gid and its numeric id) merge their products.
    const set = index.get(name) ?? new Set<string>();
    for (const product of products) {
      const productId = numericIdOf(product);
      if (productId !== undefined) set.add(productId);
    }
    index.set(name, set);
  }
  return { byId, byHandle };
}

function normalisedSet(values: readonly string[] | undefined | null, fold: (value: string) => string): ReadonlySet<string> {
  if (!Array.isArray(values) || values.length === 0) return EMPTY_SET;
  const set = new Set<string>();
  for (const value of values) {
    if (typeof value !== 'string') continue;
    const trimmed = fold(value.trim());
    if (trimmed !== '') set.add(trimmed);
  }
  return set;
}
