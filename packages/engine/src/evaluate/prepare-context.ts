import type { IdKey } from '../ids.ts';
import { idKeyOf } from '../ids.ts';
import type { CartLine, EvaluationContext } from '../schema/evaluation-context.ts';
import type { CollectionMap } from './collection-map.ts';
import { openCollectionMap } from './collection-map.ts';

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

/** A non-gift cart line with its ids reduced to comparison keys once. */
export type PreparedLine = {
  productId: IdKey | undefined;
  variantId: IdKey | undefined;
  quantity: number;
  /** Selling plan id key; undefined for a one-time purchase (or an unreadable id). */
  sellingPlanId: IdKey | undefined;
  hasSellingPlan: boolean;
  attributes: Readonly<Record<string, string>> | undefined;
  /** From `_collections`: lowercased handles and id keys. */
  collectionHandles: ReadonlySet<string>;
  collectionIds: ReadonlySet<IdKey>;
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
  /** The non-gift lines as given; see {@link preparedLines} for the per-line records. */
  nonGiftLines: readonly CartLine[];
  /** Filled by {@link preparedLines} on first use. */
  lineCache: PreparedLine[] | undefined;
  subtotal: number;
  total: number;
  itemCount: number;
  /** Summed quantity per product / variant id key; presence is `.has(id)`. */
  productQuantities: ReadonlyMap<IdKey, number>;
  variantQuantities: ReadonlyMap<IdKey, number>;
  /** Memo of `line.in_collection` answers per collection key, filled on first use. */
  collectionHits: Map<string, boolean>;
  hasSubscriptionLine: boolean;
  /** Uppercased, trimmed, non-empty codes. */
  discountCodes: ReadonlySet<string>;
  loggedIn: boolean;
  /** Lowercased, trimmed tags of the logged-in customer. */
  customerTags: ReadonlySet<string>;
  /** The context's collection map, read lazily. */
  collections: CollectionMap | undefined;
};

const EMPTY_STRINGS: ReadonlySet<string> = new Set();
const EMPTY_IDS: ReadonlySet<IdKey> = new Set();

/**
 * Whether a cart line is a gift line (carries `_svc_campaign_id`).
 *
 * @example isGiftLine({ attributes: { _svc_campaign_id: 'cmp_1' } }) // true
 */
export function isGiftLine(line: { attributes?: Readonly<Record<string, string>> | undefined | null }): boolean {
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
  const nonGiftLines: CartLine[] = [];
  const productQuantities = new Map<IdKey, number>();
  const variantQuantities = new Map<IdKey, number>();
  const useDiscounted = options.useDiscountedPrices === true;
  let subtotal = 0;
  let itemCount = 0;
  let hasSubscriptionLine = false;
  for (const line of cart.lines) {
    if (isGiftLine(line)) continue;
    nonGiftLines.push(line);
    const quantity = quantityOf(line);
    const productId = idKeyOf(line.productId);
    const variantId = idKeyOf(line.variantId);
    if (productId !== undefined) productQuantities.set(productId, (productQuantities.get(productId) ?? 0) + quantity);
    if (variantId !== undefined) variantQuantities.set(variantId, (variantQuantities.get(variantId) ?? 0) + quantity);
    if (hasSellingPlan(line)) hasSubscriptionLine = true;
    const unitPrice = useDiscounted && typeof line.discountedPrice === 'number' ? line.discountedPrice : line.price;
    subtotal += unitPrice * quantity;
    itemCount += quantity;
  }
  const customer = ctx.customer;
  const loggedIn = customer?.loggedIn === true;
  return {
    kind: 'prepared-context',
    currency: normaliseCurrency(cart.currency),
    baseCurrency: normaliseCurrency(options.baseCurrency),
    marketHandle: ctx.market?.handle?.trim().toLowerCase(),
    country: ctx.market?.country?.trim().toUpperCase(),
    nonGiftLines,
    lineCache: undefined,
    subtotal,
    total: subtotal + finiteOrZero(cart.shipping) + finiteOrZero(cart.tax),
    itemCount,
    productQuantities,
    variantQuantities,
    collectionHits: new Map(),
    hasSubscriptionLine,
    discountCodes: normalisedSet(cart.discountCodes, (code) => code.toUpperCase()),
    loggedIn,
    customerTags: loggedIn ? normalisedSet(customer?.tags, (tag) => tag.toLowerCase()) : EMPTY_STRINGS,
    collections: openCollectionMap(ctx.collections),
  };
}

/**
 * Adds one non-gift line to `prepared`, as {@link prepareContext}'s loop does for each line:
 * for a caller that has the line's id keys already (`idKeyOf`'s; undefined for none), its
 * quantity and unit price (minor units). The checkout function prepares its cart without
 * lines (`prepareContext` of `lines: []`) and tallies each line of the platform's input, so
 * no line is turned into a {@link CartLine} and walked again (docs/checkout-function.md
 * "Instructions"). `line`, when given, is kept for the leaves that walk lines
 * ({@link preparedLines}); a caller may leave it out only when no evaluated tree walks them.
 * The same sums as `prepareContext` (property-tested: packages/engine/test/prepare-context-tally.test.ts);
 * its loop does not call this, so the storefront's first load stays within its budget.
 *
 * @example tallyLine(prepared, 42, 4201, 2, 1500, false)
 */
export function tallyLine(
  prepared: PreparedContext,
  productId: IdKey | undefined,
  variantId: IdKey | undefined,
  quantity: number,
  unitPrice: number,
  subscription: boolean,
  line?: CartLine,
): void {
  const products = prepared.productQuantities as Map<IdKey, number>;
  const variants = prepared.variantQuantities as Map<IdKey, number>;
  if (line !== undefined) (prepared.nonGiftLines as CartLine[]).push(line);
  if (productId !== undefined) products.set(productId, (products.get(productId) ?? 0) + quantity);
  if (variantId !== undefined) variants.set(variantId, (variants.get(variantId) ?? 0) + quantity);
  if (subscription) prepared.hasSubscriptionLine = true;
  const amount = unitPrice * quantity;
  prepared.subtotal += amount;
  // The lines' amounts are integers (minor units), so added after shipping and tax, the same total.
  prepared.total += amount;
  prepared.itemCount += quantity;
}

/**
 * The per-line records of the non-gift lines, built on first use: only leaves that walk
 * lines (restricted presence or quantity, properties, the `_collections` fallback) need
 * them; the others read the aggregates, so most carts never build them.
 *
 * @example for (const line of preparedLines(ctx)) if (line.hasSellingPlan) count++;
 */
export function preparedLines(ctx: PreparedContext): readonly PreparedLine[] {
  ctx.lineCache ??= ctx.nonGiftLines.map(prepareLine);
  return ctx.lineCache;
}

function quantityOf(line: CartLine): number {
  return typeof line.quantity === 'number' && Number.isFinite(line.quantity) ? line.quantity : 0;
}

function hasSellingPlan(line: CartLine): boolean {
  const plan = line.sellingPlanId;
  return plan !== undefined && plan !== null && plan !== '';
}

/**
 * Currency codes compare case-insensitively.
 *
 * @example normaliseCurrency(' eur ') // 'EUR'
 */
export function normaliseCurrency(code: string | undefined): string {
  return typeof code === 'string' ? code.trim().toUpperCase() : '';
}

function finiteOrZero(amount: number | undefined): number {
  return typeof amount === 'number' && Number.isFinite(amount) ? amount : 0;
}

function prepareLine(line: CartLine): PreparedLine {
  const subscription = hasSellingPlan(line);
  const attributes = line.attributes ?? undefined;
  let handles = EMPTY_STRINGS;
  let ids = EMPTY_IDS;
  const raw = attributes !== undefined && Object.hasOwn(attributes, COLLECTIONS_ATTRIBUTE) ? attributes[COLLECTIONS_ATTRIBUTE] : undefined;
  if (typeof raw === 'string') {
    const handleSet = new Set<string>();
    const idSet = new Set<IdKey>();
    for (const token of raw.split(',')) addCollectionKey(token, handleSet, idSet);
    handles = handleSet;
    ids = idSet;
  }
  return {
    productId: idKeyOf(line.productId),
    variantId: idKeyOf(line.variantId),
    quantity: quantityOf(line),
    sellingPlanId: subscription ? idKeyOf(line.sellingPlanId) : undefined,
    hasSellingPlan: subscription,
    attributes,
    collectionHandles: handles,
    collectionIds: ids,
  };
}

// A collection reference is a numeric id (digits or gid) or else a lowercased handle.
function addCollectionKey(token: string, handles: Set<string>, ids: Set<IdKey>): void {
  const trimmed = token.trim();
  if (trimmed === '') return;
  const id = idKeyOf(trimmed);
  if (id !== undefined) ids.add(id);
  else handles.add(trimmed.toLowerCase());
}

function normalisedSet(values: readonly string[] | undefined | null, fold: (value: string) => string): ReadonlySet<string> {
  if (!Array.isArray(values) || values.length === 0) return EMPTY_STRINGS;
  const set = new Set<string>();
  for (const value of values) {
    if (typeof value !== 'string') continue;
    const trimmed = fold(value.trim());
    if (trimmed !== '') set.add(trimmed);
  }
  return set;
}
