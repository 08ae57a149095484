/**
 * A shortcut past {@link evaluationContextSchema} for contexts that are plainly valid: a walk
 * of the JSON value that builds exactly what the schema's parse returns (the same keys in the
 * same order, unknown keys dropped, attributes in their object form) or gives up. It never
 * refuses: anything it is not sure of (a wrong type, a string the storable-text check would
 * look at twice, a key `__proto__`, a non-plain object) is left to the schema, which then
 * accepts or words the refusal as it always has. So the answers of a service that tries this
 * first are the schema's, byte for byte; only valid contexts are cheaper (a server's
 * POST /evaluate spent about a third of its CPU in the schema's parse of the cart and its
 * collection map). test/evaluation-context-fast.test.ts checks with fast-check that whatever
 * this accepts, the schema accepts with a deep-equal result, keys in the same order.
 *
 * The key lists below are checked against the schema's types at compile time: a field added
 * to the schema and not here fails the type check rather than being dropped.
 */
import { MAYBE_UNSTORABLE } from './literals.ts';
import { NUMERIC_ID_PATTERN, gidPattern } from './gid.ts';
import { attributesFromList } from './line-attributes.ts';
import { CURRENCY_CODE_PATTERN } from './evaluation-context.ts';
import type { Cart, CartLine, EvaluationContext } from './evaluation-context.ts';

/** Thrown inside the walk to give up; never escapes {@link acceptEvaluationContext}. */
const UNSURE = Symbol('unsure');

type Plain = Record<string, unknown>;

// Every key of each object, in the schema's order; the types below say none is missing.
type ContextKeys = ['cart', 'customer', 'market', 'collections', 'visitorId'];
type CartKeys = ['currency', 'lines', 'shipping', 'tax', 'discountCodes'];
type LineKeys = ['id', 'productId', 'variantId', 'quantity', 'price', 'discountedPrice', 'sellingPlanId', 'attributes'];
type CustomerKeys = ['id', 'loggedIn', 'tags'];
type MarketKeys = ['handle', 'country'];

/** `never` unless `Keys` lists every key of `T` (and nothing else). */
type Exhaustive<T, Keys extends string[]> = [Exclude<keyof T, Keys[number]>, Exclude<Keys[number], keyof T>] extends [never, never] ? true : never;
const covered: [
  Exhaustive<EvaluationContext, ContextKeys>,
  Exhaustive<Cart, CartKeys>,
  Exhaustive<CartLine, LineKeys>,
  Exhaustive<NonNullable<EvaluationContext['customer']>, CustomerKeys>,
  Exhaustive<NonNullable<EvaluationContext['market']>, MarketKeys>,
] = [true, true, true, true, true];
void covered;

const PRODUCT_GID = gidPattern('Product');
const VARIANT_GID = gidPattern('ProductVariant');
const SELLING_PLAN_GID = gidPattern('SellingPlan');

/** A JSON object (what JSON.parse makes), or give up. */
function plain(value: unknown): Plain {
  if (typeof value !== 'object' || value === null) throw UNSURE;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) throw UNSURE;
  return value as Plain;
}

function list(value: unknown): unknown[] {
  if (!Array.isArray(value)) throw UNSURE;
  return value;
}

/** `textSchema`: a string its storable-text check lets through at its first look. */
function text(value: unknown): string {
  if (typeof value !== 'string' || MAYBE_UNSTORABLE.test(value)) throw UNSURE;
  return value;
}

/** `z.int()`: a safe integer. */
function int(value: unknown): number {
  if (!Number.isSafeInteger(value)) throw UNSURE;
  return value as number;
}

function nonNegativeInt(value: unknown): number {
  const number = int(value);
  if (number < 0) throw UNSURE;
  return number;
}

/** `gidOrNumericIdSchema(type)`: the value as it came. */
function gidOrNumericId(value: unknown, gid: RegExp): string | number {
  if (typeof value === 'string') {
    if (gid.test(value) || NUMERIC_ID_PATTERN.test(value)) return value;
    throw UNSURE;
  }
  return nonNegativeInt(value);
}

/** True when `object` has no value at `key` (as the schema reads an optional key: undefined is a value given). */
function absent(object: Plain, key: string): boolean {
  if (object[key] !== undefined) return false;
  if (key in object) throw UNSURE;
  return true;
}

/** `z.record(textSchema, item)`, keys in the object's own order. */
function record<T>(value: unknown, item: (value: unknown) => T): Record<string, T> {
  const object = plain(value);
  const out: Record<string, T> = {};
  for (const key of Object.keys(object)) {
    if (key === '__proto__') throw UNSURE;
    out[text(key)] = item(object[key]);
  }
  return out;
}

/** `lineAttributesSchema`: the list form `[{ key, value }]` or the object form, to the object form. */
function attributes(value: unknown): Record<string, string> {
  if (!Array.isArray(value)) return record(value, text);
  const entries = value.map((entry) => {
    const pair = plain(entry);
    const valueOf = pair.value;
    return { key: text(pair.key), value: valueOf === null ? null : text(valueOf) };
  });
  return attributesFromList(entries);
}

function cartLine(value: unknown): CartLine {
  const input = plain(value);
  const line: Partial<CartLine> = {};
  if (!absent(input, 'id')) line.id = text(input.id);
  line.productId = gidOrNumericId(input.productId, PRODUCT_GID);
  line.variantId = gidOrNumericId(input.variantId, VARIANT_GID);
  line.quantity = nonNegativeInt(input.quantity);
  line.price = nonNegativeInt(input.price);
  if (!absent(input, 'discountedPrice')) line.discountedPrice = nonNegativeInt(input.discountedPrice);
  if (!absent(input, 'sellingPlanId')) line.sellingPlanId = input.sellingPlanId === null ? null : gidOrNumericId(input.sellingPlanId, SELLING_PLAN_GID);
  if (!absent(input, 'attributes')) line.attributes = attributes(input.attributes);
  return line as CartLine;
}

function cart(value: unknown): Cart {
  const input = plain(value);
  const currency = input.currency;
  if (typeof currency !== 'string' || !CURRENCY_CODE_PATTERN.test(currency)) throw UNSURE;
  const out: Partial<Cart> = { currency, lines: list(input.lines).map(cartLine) };
  if (!absent(input, 'shipping')) out.shipping = int(input.shipping);
  if (!absent(input, 'tax')) out.tax = int(input.tax);
  if (!absent(input, 'discountCodes')) out.discountCodes = list(input.discountCodes).map(text);
  return out as Cart;
}

function customer(value: unknown): EvaluationContext['customer'] {
  if (value === null) return null;
  const input = plain(value);
  const out: Partial<NonNullable<EvaluationContext['customer']>> = {};
  if (!absent(input, 'id')) out.id = text(input.id);
  if (typeof input.loggedIn !== 'boolean') throw UNSURE;
  out.loggedIn = input.loggedIn;
  out.tags = list(input.tags).map(text);
  return out as NonNullable<EvaluationContext['customer']>;
}

function market(value: unknown): EvaluationContext['market'] {
  if (value === null) return null;
  const input = plain(value);
  return { handle: text(input.handle), country: text(input.country) };
}

const productId = (value: unknown) => gidOrNumericId(value, PRODUCT_GID);
const productIds = (value: unknown) => list(value).map(productId);

/** A map this function returned before, when `collections` equals it by value; else undefined. */
export type KnownCollections = (collections: unknown) => EvaluationContext['collections'] | undefined;

/**
 * What `evaluationContextSchema.parse(input)` returns when `input` (a JSON value) is plainly
 * valid; undefined when the schema has to judge it (it may still accept it). `known` may hand
 * back a `collections` map this function returned before, equal by value (sameCollections):
 * it is then used as it is, unwalked, and the engine keeps what it derived from that object.
 *
 * @example
 *   const context = acceptEvaluationContext(body) ?? evaluationContextSchema.parse(body);
 */
export function acceptEvaluationContext(input: unknown, known?: KnownCollections): EvaluationContext | undefined {
  try {
    const object = plain(input);
    const context: Partial<EvaluationContext> = { cart: cart(object.cart) };
    if (!absent(object, 'customer')) context.customer = customer(object.customer);
    if (!absent(object, 'market')) context.market = market(object.market);
    if (!absent(object, 'collections')) context.collections = known?.(object.collections) ?? record(object.collections, productIds);
    if (!absent(object, 'visitorId')) context.visitorId = text(object.visitorId);
    return context as EvaluationContext;
  } catch (error) {
    if (error === UNSURE) return undefined;
    throw error;
  }
}

/**
 * Whether `input` is the map `accepted` by value: the same keys in the same order, each with the
 * same ids in the same order. A map acceptEvaluationContext returned is its input as it came, so
 * an input equal to it would be accepted as an equal map.
 *
 * @example
 *   sameCollections({ a: ['gid://shopify/Product/1'] }, { a: ['gid://shopify/Product/1'] }); // true
 */
export function sameCollections(accepted: NonNullable<EvaluationContext['collections']>, input: unknown): boolean {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return false;
  const keys = Object.keys(accepted);
  const inputKeys = Object.keys(input);
  if (keys.length !== inputKeys.length) return false;
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k] as string;
    if (inputKeys[k] !== key) return false;
    const ids = accepted[key] as ReadonlyArray<string | number>;
    const given = (input as Record<string, unknown>)[key];
    if (!Array.isArray(given) || given.length !== ids.length) return false;
    for (let i = 0; i < ids.length; i++) if (given[i] !== ids[i]) return false;
  }
  return true;
}
