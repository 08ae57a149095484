/**
 * Shared pieces of never-5xx.test.ts: the campaign and evaluation context bodies its valid
 * bodies start from, and the fast-check generators of nasty text, raw path segments and the
 * string slots of a JSON body.
 */
import fc from 'fast-check';

export const variant = 'gid://shopify/ProductVariant/1';

function rule(name: string) {
  return {
    name,
    enabled: true,
    conditionTree: {
      type: 'AND',
      children: [
        { type: 'customer.tag_in', value: ['vip'] },
        { type: 'line.property_equals', key: 'engraving', value: 'yes' },
        { type: 'line.has_product_id', value: '7', propertyKey: 'k', propertyValue: 'v' },
        { type: 'discount.code_equals', value: 'GIFT' },
        { type: 'market.handle_in', value: ['eu'] },
        { type: 'cart.subtotal_gte', value: 100, currencyOverrides: { EUR: 90 }, marketOverrides: { eu: 80 } },
        { type: 'NOT', child: { type: 'line.in_collection', value: 'summer' } },
      ],
    },
    giftConfig: { type: 'fixed', gifts: [{ variantId: variant, quantity: 1 }], fallbackOnOOS: false },
    options: { actionType: 'auto_add', discountMethod: 'automatic', discountType: 'percentage', discountValue: 100, discountTitle: 'Free gift' },
  };
}

/** A campaign body; with `ids`, its rules keep those ids (a PUT that keeps the rules experiments use). */
export function campaign(name: string, ids?: readonly string[]) {
  const rules = [rule('first'), rule('second')].map((r, index) => (ids ? { id: ids[index], ...r } : r));
  return { name, enabled: false, isDraft: false, startAt: null, endAt: null, rules };
}

export const context = () => ({
  cart: {
    currency: 'USD',
    lines: [{ id: 'line-1', productId: '7', variantId: '1', quantity: 1, price: 1000, attributes: { engraving: 'yes' } }],
    discountCodes: ['GIFT'],
  },
  customer: { id: '42', loggedIn: true, tags: ['vip'] },
  market: { handle: 'eu', country: 'FR' },
  collections: { summer: ['7'] },
  visitorId: 'visitor-1',
});

/** Text a store may refuse or a parser may trip on; `binary` covers every code point, lone surrogates included. */
export const nastyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 6 }).map((text) => `${text}\u0000`),
  fc.constantFrom('\u0000', 'a\u0000b', '\uD800', 'x\uDFFFy', '\uDBFF\uDFFF', '\'"', '%00', '\uFEFF', ' '),
);

export const percentEncode = (bytes: Iterable<number>) =>
  [...bytes].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');

/** A path segment or query value as sent on the wire: encodings of nasty text, raw bytes, broken escapes. */
export const rawSegment = fc.oneof(
  fc.constantFrom('%00', '%00%27%22', '%27', '%22', '%ZZ', '%', '%4', '%C0%80', '%C1%BF', '%ED%A0%80', '%ED%BF%BF', '%F4%90%80%80', '%E2%82', '%FF', '%2F', '%2E%2E'),
  // Buffer writes a lone surrogate as U+FFFD; the raw bytes below reach the invalid UTF-8 it cannot.
  nastyText.map((text) => percentEncode(Buffer.from(text, 'utf8'))),
  fc.uint8Array({ minLength: 1, maxLength: 8 }).map(percentEncode),
);

export type Slot = { path: Array<string | number>; kind: 'value' | 'key' };

/** Every string of a JSON value, and every object key, with where it is. */
export function slotsOf(value: unknown, path: Array<string | number> = []): Slot[] {
  if (typeof value === 'string') return [{ path, kind: 'value' }];
  if (Array.isArray(value)) return value.flatMap((item, index) => slotsOf(item, [...path, index]));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => [{ path: [...path, key], kind: 'key' as const }, ...slotsOf(item, [...path, key])]);
  }
  return [];
}

/** Writes `text` into the slot: a string value replaced, or a key renamed (its value kept). */
export function writeSlot(root: unknown, slot: Slot, text: string): unknown {
  if (slot.path.length === 0) return text;
  let holder = root as Record<string | number, unknown>;
  for (const key of slot.path.slice(0, -1)) holder = holder[key] as Record<string | number, unknown>;
  const last = slot.path[slot.path.length - 1] as string | number;
  if (slot.kind === 'value') holder[last] = text;
  else if (text !== last) {
    holder[text] = holder[last];
    delete holder[last];
  }
  return root;
}
