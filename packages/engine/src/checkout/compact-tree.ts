/**
 * The compact form of a condition tree in the checkout function's configuration, where every
 * byte counts (the platform caps each metafield at 10,000 bytes):
 * `["&", ...children]`, `["|", ...children]`, `["!", child]`, and a leaf as
 * `[code, ...fields]` with `code` the leaf's wire code (its record in leaves/registry.ts) and
 * its fields in the record's order (trailing absent fields dropped, absent inner ones `null`). Two shorter
 * spellings, which the decoder reads beside the long ones: an AND whose first child is an
 * array drops its `"&"` (`[child, ...]`: a node whose head is an array is an AND), and a NOT of
 * a leaf is that leaf with its code complemented (`[~code, ...fields]`, a negative head).
 * Both directions walk with explicit stacks, like the rest of the engine (no recursion, any
 * depth).
 */
import { numericIdOf } from '../ids.ts';
import { LEAVES } from '../leaves/registry.ts';
import type { AnyLeafRecord } from '../leaves/registry.ts';

// The registry's wire codes, both ways. A code's leaf is found by the code written in its
// record, never by a position, so adding a leaf shifts nothing already stored.
const RECORD_OF = new Map(Object.entries(LEAVES) as Array<[string, AnyLeafRecord]>);
const LEAF_OF_CODE = new Map([...RECORD_OF].map(([type, leaf]) => [leaf.code, { type, leaf }]));

/** Leaf type → its code and compact fields, in code order: the table of docs/checkout-function.md. */
export const LEAF_CODEC: ReadonlyArray<readonly [code: number, type: string, fields: readonly string[]]> = [...LEAF_OF_CODE]
  .sort(([a], [b]) => a - b)
  .map(([code, { type, leaf }]) => [code, type, leaf.fields] as const);

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
    const record = RECORD_OF.get(String(leaf.type));
    if (record === undefined) {
      item.out.push(0);
      continue;
    }
    const encoded: unknown[] = [record.code];
    for (const field of record.fields) {
      let value = leaf[field];
      if (record.ids?.includes(field) === true) value = compactId(value);
      if (record.lists?.includes(field) === true && Array.isArray(value) && value.length === 1 && !Array.isArray(value[0])) value = value[0];
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
  const holder: Record<string, unknown> = {};
  // Each item says where its decoded node goes (`into[key]`): no closure per node, and loops
  // rather than callbacks or spreads, as the checkout function decodes each claimed rule's tree
  // and QuickJS counts every call (docs/checkout-function.md "Instructions").
  const stack: Array<{ node: unknown; into: Record<string | number, unknown>; key: string | number }> = [{ node: compact, into: holder, key: 'child' }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const node = item.node;
    if (!Array.isArray(node) || node.length === 0) {
      item.into[item.key] = { type: 'malformed' };
      continue;
    }
    const head: unknown = node[0];
    // The short spellings: a bare AND (its head is its first child) and a negated leaf.
    if (Array.isArray(head)) {
      const children: unknown[] = [];
      item.into[item.key] = { type: 'AND', children };
      for (let i = node.length - 1; i >= 0; i--) stack.push({ node: node[i], into: children as unknown as Record<number, unknown>, key: i });
      continue;
    }
    if (typeof head === 'number' && Number.isInteger(head) && head < 0) {
      const decoded: Record<string, unknown> = { type: 'NOT' };
      item.into[item.key] = decoded;
      const leaf = node.slice();
      leaf[0] = ~head;
      stack.push({ node: leaf, into: decoded, key: 'child' });
      continue;
    }
    const combinator = typeof head === 'string' ? COMBINATOR_TYPES[head] : undefined;
    if (combinator === 'NOT') {
      const decoded: Record<string, unknown> = { type: 'NOT' };
      item.into[item.key] = decoded;
      stack.push({ node: node[1], into: decoded, key: 'child' });
      continue;
    }
    if (combinator !== undefined) {
      const children: unknown[] = [];
      item.into[item.key] = { type: combinator, children };
      for (let i = node.length - 1; i >= 1; i--) stack.push({ node: node[i], into: children as unknown as Record<number, unknown>, key: i - 1 });
      continue;
    }
    const entry = typeof head === 'number' ? LEAF_OF_CODE.get(head) : undefined;
    if (entry === undefined) {
      item.into[item.key] = { type: 'malformed' };
      continue;
    }
    const leaf: Record<string, unknown> = { type: entry.type };
    const fields = entry.leaf.fields;
    const lists = entry.leaf.lists;
    for (let i = 0; i < fields.length; i++) {
      const value: unknown = node[i + 1];
      if (value === undefined || value === null) continue;
      const field = fields[i] as string;
      leaf[field] = lists !== undefined && !Array.isArray(value) && lists.includes(field as never) ? [value] : value;
    }
    item.into[item.key] = leaf;
  }
  return holder.child;
}
