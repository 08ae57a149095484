/**
 * The shortcut past the context schema (evaluation-context-fast.ts) against the schema itself:
 * whatever the shortcut accepts, the schema accepts, with the same result (same keys in the
 * same order, same values); it refuses nothing itself. And it does take plainly valid
 * contexts, in both attribute forms, so the service's POST /evaluate is spared the schema.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { acceptEvaluationContext, evaluationContextSchema } from '../src/index.ts';

/** Deep equality that also compares key order, prototypes and undefined-valued keys. */
function expectSame(actual: unknown, expected: unknown, path = '$'): void {
  if (typeof expected !== 'object' || expected === null) {
    expect(Object.is(actual, expected), `${path}: ${String(actual)} vs ${String(expected)}`).toBe(true);
    return;
  }
  expect(typeof actual === 'object' && actual !== null, path).toBe(true);
  const a = actual as Record<string, unknown>;
  const e = expected as Record<string, unknown>;
  expect(Array.isArray(a), path).toBe(Array.isArray(e));
  expect(Object.getPrototypeOf(a), path).toBe(Object.getPrototypeOf(e));
  expect(Reflect.ownKeys(a), path).toEqual(Reflect.ownKeys(e));
  for (const key of Object.keys(e)) expectSame(a[key], e[key], `${path}.${key}`);
}

// Values that break a field in every way the schema distinguishes, and some it does not.
const junk = fc.oneof(
  fc.constantFrom<unknown>(undefined, null, true, false, 0, -1, -0, 1.5, 2 ** 53, Number.NaN, Infinity, '', 'x', 'USD', 'usd', 'EURO', '12', '-1',
    'a\u0000b', '\uD800', '\uD83D\uDE00', 'gid://shopify/Product/1', 'gid://shopify/ProductVariant/2', 'gid://x/SellingPlan/3', 'gid://shopify/Product/1x',
    [], {}, ['x'], { a: 1 }, [{ key: 'k', value: 'v' }], { k: 'v' }, JSON.parse('{"__proto__":{"x":1}}') as unknown, Object.create(null) as unknown, new Date(0)),
  fc.anything({ maxDepth: 2 }),
);

/** A valid value most of the time, else junk (rarely enough that a context of ~40 fields is often whole). */
const mostly = <T>(valid: fc.Arbitrary<T>): fc.Arbitrary<unknown> => fc.oneof({ weight: 60, arbitrary: valid }, { weight: 1, arbitrary: junk });

/** An object of `fields`: each optional one absent, and the odd unknown key. */
function objectOf(fields: Record<string, fc.Arbitrary<unknown>>, optional: readonly string[]): fc.Arbitrary<unknown> {
  const requiredKeys = Object.keys(fields).filter((k) => !optional.includes(k));
  const extra = fc.option(fc.tuple(fc.constantFrom('other', 'constructor', '__proto__', 'toString'), junk), { freq: 20 });
  return fc.tuple(fc.record(fields, { requiredKeys }), extra).map(([values, more]) => {
    const object: Record<string, unknown> = { ...values };
    if (more !== null) Object.defineProperty(object, more[0], { value: more[1], enumerable: true, writable: true, configurable: true });
    return object;
  });
}

const text = fc.oneof(
  { weight: 30, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }) },
  { weight: 1, arbitrary: fc.constantFrom('a\u0000', '\uDC00x', '\uD83D\uDE00') },
);
const int = fc.oneof(fc.integer({ min: -5, max: 1_000_000 }), fc.constantFrom(Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER));
const id = (type: string) => fc.oneof(fc.nat({ max: 99 }).map((n) => `gid://shopify/${type}/${n}`), fc.nat({ max: 99 }), fc.nat({ max: 99 }).map(String));
const attributes = fc.oneof(
  fc.dictionary(text, mostly(text), { maxKeys: 3 }),
  fc.array(mostly(objectOf({ key: mostly(text), value: mostly(fc.option(text, { nil: null })) }, [])), { maxLength: 3 }),
);
const line = objectOf(
  {
    id: mostly(text),
    productId: mostly(id('Product')),
    variantId: mostly(id('ProductVariant')),
    quantity: mostly(fc.nat({ max: 5 })),
    price: mostly(fc.nat({ max: 5000 })),
    discountedPrice: mostly(fc.nat({ max: 5000 })),
    sellingPlanId: mostly(fc.option(id('SellingPlan'), { nil: null })),
    attributes: mostly(attributes),
  },
  ['id', 'discountedPrice', 'sellingPlanId', 'attributes'],
);
const context = objectOf(
  {
    cart: mostly(
      objectOf(
        {
          currency: mostly(fc.constantFrom('USD', 'eur', 'JPY')),
          lines: mostly(fc.array(line, { maxLength: 4 })),
          shipping: mostly(int),
          tax: mostly(int),
          discountCodes: mostly(fc.array(mostly(text), { maxLength: 2 })),
        },
        ['shipping', 'tax', 'discountCodes'],
      ),
    ),
    customer: mostly(fc.option(objectOf({ id: mostly(text), loggedIn: mostly(fc.boolean()), tags: mostly(fc.array(mostly(text), { maxLength: 2 })) }, ['id']), { nil: null })),
    market: mostly(fc.option(objectOf({ handle: mostly(text), country: mostly(text) }, []), { nil: null })),
    collections: mostly(fc.dictionary(text, mostly(fc.array(mostly(id('Product')), { maxLength: 3 })), { maxKeys: 3 })),
    visitorId: mostly(text),
  },
  ['customer', 'market', 'collections', 'visitorId'],
);

describe('acceptEvaluationContext', () => {
  it('accepts only what the schema accepts, parsed to the same value', () => {
    let accepted = 0;
    let deferred = 0;
    fc.assert(
      fc.property(context, (input) => {
        const fast = acceptEvaluationContext(input);
        const schema = evaluationContextSchema.safeParse(input);
        if (fast === undefined) {
          deferred += 1;
          return;
        }
        accepted += 1;
        expect(schema.success).toBe(true);
        expectSame(fast, schema.data);
      }),
      { numRuns: 4000 },
    );
    // Both ways were tried, so the property said something about each.
    expect(accepted).toBeGreaterThan(100);
    expect(deferred).toBeGreaterThan(100);
  });

  it('the same for JSON text as a body arrives (JSON.parse makes own __proto__ keys)', () => {
    fc.assert(
      fc.property(context, (input) => {
        const text = JSON.stringify(input) as string | undefined;
        if (text === undefined) return;
        const body: unknown = JSON.parse(text);
        const fast = acceptEvaluationContext(body);
        if (fast === undefined) return;
        const schema = evaluationContextSchema.safeParse(body);
        expect(schema.success).toBe(true);
        expectSame(fast, schema.data);
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['a collection', '{"cart":{"currency":"USD","lines":[]},"collections":{"__proto__":["1"]}}'],
    ['an attribute', '{"cart":{"currency":"USD","lines":[{"productId":1,"variantId":2,"quantity":1,"price":1,"attributes":{"__proto__":"x"}}]}}'],
  ])('leaves a key __proto__ (JSON.parse makes it an own key) of %s to the schema', (_name, json) => {
    expect(acceptEvaluationContext(JSON.parse(json))).toBeUndefined();
  });

  it.each([
    ['the smallest cart', { cart: { currency: 'USD', lines: [] } }],
    [
      'a storefront cart with both attribute forms, a collection map and unknown keys',
      {
        cart: {
          currency: 'eur',
          lines: [
            { id: 'gid://shopify/CartLine/1', productId: 'gid://shopify/Product/1', variantId: '11', quantity: 2, price: 1000, attributes: [{ key: 'gift_wrap', value: 'yes' }, { key: 'note', value: null }] },
            { productId: 7, variantId: 'gid://shopify/ProductVariant/71', quantity: 1, price: 0, discountedPrice: 0, sellingPlanId: null, attributes: { _svc_campaign_id: 'cmp_1' }, extra: true },
          ],
          shipping: -100,
          tax: 0,
          discountCodes: ['WELCOME'],
        },
        customer: { id: 'gid://shopify/Customer/5', loggedIn: true, tags: ['vip'] },
        market: { handle: 'eu', country: 'DE' },
        collections: { summer: ['gid://shopify/Product/1', '2', 3], '55': [] },
        visitorId: 'visitor-1',
        debug: true,
      },
    ],
    ['an emoji (a valid surrogate pair) in a tag', { cart: { currency: 'USD', lines: [] }, customer: { loggedIn: false, tags: ['🎁'] } }],
  ])('takes %s', (_name, input) => {
    const fast = acceptEvaluationContext(input);
    if (fast === undefined && _name.includes('emoji')) {
      // A string with surrogates is the schema's to judge (it accepts this one).
      expect(evaluationContextSchema.safeParse(input).success).toBe(true);
      return;
    }
    expect(fast).toBeDefined();
    expectSame(fast, evaluationContextSchema.parse(input));
  });
});
