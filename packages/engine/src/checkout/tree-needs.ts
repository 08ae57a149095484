/**
 * Which line facts the claimed rules' condition trees compare (issue 22, instructions): the
 * function converts a line's product and variant gids, and reads its collections, only when a
 * leaf of a tree it evaluates needs them. In QuickJS a gid costs about 12K instructions to
 * key, so a 200-line cart whose claimed rules compare only amounts, tags or countries skips
 * ~5M (docs/checkout-function.md "Instructions").
 *
 * Reads the compact trees as written (compact-tree.ts) without decoding them: `["&", …]`,
 * `["|", …]`, `["!", child]`, an array whose head is an array (an AND), a leaf `[code, …]` or
 * `[~code, …]` (a NOT of it). An unknown code needs everything: never less than before.
 */
import { LEAF_CODEC } from './compact-tree.ts';

/**
 * `lines`: a leaf walks the cart's lines one by one (the engine's `preparedLines`), so the
 * function must hand the engine each line as a `CartLine`; otherwise the sums it tallies are
 * all any leaf reads (prepare-context.ts `tallyLine`).
 */
export type TreeNeeds = { products: boolean; variants: boolean; collections: boolean; lines: boolean };

const NONE: Partial<TreeNeeds> = {};
const ALL: TreeNeeds = { products: true, variants: true, collections: true, lines: true };

// What each leaf compares on a line; a leaf not named here reads no line id (amounts, counts,
// selling plans, properties, the buyer, the country). `line.in_collection` matches a line by
// its product's membership, so it needs products too.
const LINE_NEEDS: Record<string, Partial<TreeNeeds>> = {
  'line.has_product_id': { products: true },
  'line.has_variant_id': { variants: true },
  'line.quantity_min': { products: true, variants: true },
  'line.in_collection': { products: true, collections: true, lines: true },
  'line.property_equals': { lines: true },
};

// The leaves that walk lines only under a restriction (`sellingPlanIds`, `propertyKey`,
// `propertyValue`: line-filter.ts): their compact leaf walks lines when it is long enough to
// hold one (trailing absent fields are dropped, so a shorter leaf has none).
const RESTRICTED_FROM = new Map<number, number>(
  LEAF_CODEC.flatMap(([code, , fields]) => (fields.includes('sellingPlanIds') ? [[code, 1 + fields.indexOf('sellingPlanIds')] as const] : [])),
);

// By wire code, from the codec's table (the leaves' own records): no code is a position.
const NEEDS_OF_CODE = new Map<number, Partial<TreeNeeds>>(LEAF_CODEC.map(([code, type]) => [code, LINE_NEEDS[type] ?? NONE]));

/**
 * The line facts any of `trees` (compact) compares.
 *
 * @example treeNeeds([[0, 5000], ['|', [4, 8], [10, 'vip']]]) // { products: true, variants: false, collections: false, lines: false }
 */
export function treeNeeds(trees: ReadonlyArray<unknown>): TreeNeeds {
  const needs: TreeNeeds = { products: false, variants: false, collections: false, lines: false };
  const stack: unknown[] = [];
  for (const tree of trees) if (tree !== undefined) stack.push(tree);
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (!Array.isArray(node) || node.length === 0) continue;
    const head: unknown = node[0];
    if (head === '&' || head === '|' || head === '!') {
      for (let i = 1; i < node.length; i++) stack.push(node[i]);
    } else if (Array.isArray(head)) {
      for (const child of node) stack.push(child);
    } else if (typeof head === 'number') {
      const code = head < 0 ? ~head : head;
      const leaf = NEEDS_OF_CODE.get(code);
      if (leaf === undefined) return { ...ALL };
      if (leaf.products === true) needs.products = true;
      if (leaf.variants === true) needs.variants = true;
      if (leaf.collections === true) needs.collections = true;
      if (leaf.lines === true || node.length > (RESTRICTED_FROM.get(code) ?? Infinity)) needs.lines = true;
    }
  }
  return needs;
}
