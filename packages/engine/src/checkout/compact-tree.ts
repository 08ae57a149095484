/**
 * The compact form of a condition tree in the checkout function's configuration, where every
 * byte counts (the platform caps each metafield at 10,000 bytes):
 * `["&", ...children]`, `["|", ...children]`, `["!", child]`, and a leaf as
 * `[code, ...fields]` with `code` its index in {@link LEAF_CODEC} and its fields in the
 * table's order (trailing absent fields dropped, absent inner ones `null`). Two shorter
 * spellings, which the decoder reads beside the long ones: an AND whose first child is an
 * array drops its `"&"` (`[child, ...]`: a node whose head is an array is an AND), and a NOT of
 * a leaf is that leaf with its code complemented (`[~code, ...fields]`, a negative head).
 * Both directions walk with explicit stacks, like the rest of the engine (no recursion, any
 * depth).
 */
import { numericIdOf } from '../ids.ts';

/** Leaf type → its fields in order. A test holds this to the leaf schemas' shapes. */
export const LEAF_CODEC: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['cart.subtotal_gte', ['value', 'currencyOverrides', 'marketOverrides']],
  ['cart.subtotal_lte', ['value', 'currencyOverrides', 'marketOverrides']],
  ['cart.total_gte', ['value', 'currencyOverrides', 'marketOverrides']],
  ['cart.item_count_gte', ['value']],
  ['line.has_product_id', ['value', 'sellingPlanIds', 'propertyKey', 'propertyValue']],
  ['line.has_variant_id', ['value', 'sellingPlanIds', 'propertyKey', 'propertyValue']],
  ['line.in_collection', ['value']],
  ['line.quantity_min', ['value', 'productId', 'variantId', 'sellingPlanIds', 'propertyKey', 'propertyValue']],
  ['line.property_equals', ['key', 'value']],
  ['line.has_selling_plan', ['value']],
  ['customer.tag_in', ['value']],
  ['customer.is_logged_in', ['value']],
  ['market.handle_in', ['value']],
  ['country.in', ['value']],
  ['discount.code_present', []],
  ['discount.code_not_present', []],
  ['discount.code_equals', ['value']],
];

const CODE_OF = new Map(LEAF_CODEC.map(([type], code) => [type, code]));
// Fields holding platform ids: written as their numeric part (the engine compares ids by it).
const ID_FIELDS: Record<string, readonly string[]> = {
  'line.has_product_id': ['value', 'sellingPlanIds'],
  'line.has_variant_id': ['value', 'sellingPlanIds'],
  'line.quantity_min': ['productId', 'variantId', 'sellingPlanIds'],
};

// Array fields written as a bare value when they hold one element (most tag and country lists).
const ARRAY_FIELDS = new Set(['customer.tag_in/value', 'market.handle_in/value', 'country.in/value', 'sellingPlanIds']);
const isArrayField = (type: string, field: string) => ARRAY_FIELDS.has(`${type}/${field}`) || ARRAY_FIELDS.has(field);

export type CompactNode = unknown[];

const COMBINATOR_CODES: Record<string, string> = { AND: '&', OR: '|', NOT: '!' };
const COMBINATOR_TYPES: Record<string, string> = { '&': 'AND', '|': 'OR', '!': 'NOT' };

/**
 * An id as short as JSON allows: its numeric part as a number when that is exact, else as
 * written. The engine compares ids by their numeric part, so all forms are one id.
 *
 * @example compactId('gid://shopify/Product/42') // 42
 */
export const compactId = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(compactId);
  const digits = typeof value === 'string' ? (value.startsWith('gid://') ? numericIdOf(value) : /^\d+$/.test(value) ? value : undefined) : undefined;
  if (digits === undefined) return value;
  const number = Number(digits);
  return Number.isSafeInteger(number) && String(number) === digits ? number : digits;
};

/**
 * A tree in compact form. `mapLeaf` may rewrite a leaf first (e.g. a collection handle into
 * its id); an unknown node becomes `0`, which decodes to a node that never matches.
 *
 * @example encodeTree({ type: 'cart.subtotal_gte', value: 5000 }) // [0, 5000]
 */
export function encodeTree(tree: unknown, mapLeaf: (leaf: Record<string, unknown>) => Record<string, unknown> = (leaf) => leaf): CompactNode | 0 {
  const root: unknown[] = [];
  const stack: Array<{ node: unknown; out: unknown[] }> = [{ node: tree, out: root }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const node = item.node as Record<string, unknown> | null;
    if (typeof node !== 'object' || node === null || typeof node.type !== 'string') {
      item.out.push(0);
      continue;
    }
    const combinator = COMBINATOR_CODES[node.type];
    if (combinator !== undefined) {
      const encoded: unknown[] = [combinator];
      item.out.push(encoded);
      const children = node.type === 'NOT' ? [node.child] : Array.isArray(node.children) ? node.children : [];
      // Pushed last-first, so the first child (and its whole subtree) is written first.
      for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i], out: encoded });
      continue;
    }
    const leaf = mapLeaf(node);
    const code = CODE_OF.get(String(leaf.type));
    if (code === undefined) {
      item.out.push(0);
      continue;
    }
    const fields = LEAF_CODEC[code]?.[1] ?? [];
    const ids = ID_FIELDS[String(leaf.type)] ?? [];
    const encoded: unknown[] = [code];
    for (const field of fields) {
      let value = leaf[field];
      if (ids.includes(field)) value = compactId(value);
      if (isArrayField(String(leaf.type), field) && Array.isArray(value) && value.length === 1 && !Array.isArray(value[0])) value = value[0];
      encoded.push(value === undefined ? null : value);
    }
    while (encoded.length > 1 && encoded[encoded.length - 1] === null) encoded.pop();
    item.out.push(encoded);
  }
  const encoded = (root[0] as CompactNode | 0 | undefined) ?? 0;
  shorten(encoded);
  return encoded;
}

/**
 * The two shorter spellings, in place: `["&", [..], ...]` → `[[..], ...]` (4 bytes an AND) and
 * `["!", [code, ...]]` → `[~code, ...]` (5 bytes a negated leaf).
 */
function shorten(tree: unknown): void {
  const stack: unknown[] = [tree];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (!Array.isArray(node)) continue;
    const [head, first] = node as unknown[];
    if (head === '!') {
      if (Array.isArray(first) && typeof first[0] === 'number' && first[0] >= 0) node.splice(0, 2, ~first[0], ...(first.slice(1) as unknown[]));
      else stack.push(first);
    } else if (head === '&' || head === '|') {
      for (let i = 1; i < node.length; i++) stack.push(node[i]);
      if (head === '&' && Array.isArray(first)) node.shift();
    }
  }
}

/**
 * The tree back in the engine's shape, ready for `compileConditionProgram`. Anything
 * malformed decodes to `{ type: 'malformed' }`, which the engine never matches.
 *
 * @example decodeTree([0, 5000]) // { type: 'cart.subtotal_gte', value: 5000 }
 */
export function decodeTree(compact: unknown): unknown {
  const holder: { child?: unknown } = {};
  const stack: Array<{ node: unknown; put: (value: unknown) => void }> = [{ node: compact, put: (value) => (holder.child = value) }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const node = item.node;
    if (!Array.isArray(node) || node.length === 0) {
      item.put({ type: 'malformed' });
      continue;
    }
    const head: unknown = node[0];
    // The short spellings: a bare AND (its head is its first child) and a negated leaf.
    if (Array.isArray(head)) {
      const children: unknown[] = [];
      item.put({ type: 'AND', children });
      for (let i = node.length - 1; i >= 0; i--) stack.push({ node: node[i], put: (value) => (children[i] = value) });
      continue;
    }
    if (typeof head === 'number' && Number.isInteger(head) && head < 0) {
      const decoded: Record<string, unknown> = { type: 'NOT' };
      item.put(decoded);
      stack.push({ node: [~head, ...(node.slice(1) as unknown[])], put: (value) => (decoded.child = value) });
      continue;
    }
    const combinator = typeof head === 'string' ? COMBINATOR_TYPES[head] : undefined;
    if (combinator === 'NOT') {
      const decoded: Record<string, unknown> = { type: 'NOT' };
      item.put(decoded);
      stack.push({ node: node[1], put: (value) => (decoded.child = value) });
      continue;
    }
    if (combinator !== undefined) {
      const children: unknown[] = [];
      item.put({ type: combinator, children });
      for (let i = node.length - 1; i >= 1; i--) stack.push({ node: node[i], put: (value) => (children[i - 1] = value) });
      continue;
    }
    const entry = typeof head === 'number' ? LEAF_CODEC[head] : undefined;
    if (entry === undefined) {
      item.put({ type: 'malformed' });
      continue;
    }
    const leaf: Record<string, unknown> = { type: entry[0] };
    entry[1].forEach((field, i) => {
      const value: unknown = node[i + 1];
      if (value !== undefined && value !== null) leaf[field] = isArrayField(entry[0], field) && !Array.isArray(value) ? [value] : value;
    });
    item.put(leaf);
  }
  return holder.child;
}
