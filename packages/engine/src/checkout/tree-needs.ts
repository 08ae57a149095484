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

export type TreeNeeds = { products: boolean; variants: boolean; collections: boolean };

const NONE: Partial<TreeNeeds> = {};
const ALL: TreeNeeds = { products: true, variants: true, collections: true };

// What each leaf compares on a line; a leaf not named here reads no line id (amounts, counts,
// selling plans, properties, the buyer, the country). `line.in_collection` matches a line by
// its product's membership, so it needs products too.
const LINE_NEEDS: Record<string, Partial<TreeNeeds>> = {
  'line.has_product_id': { products: true },
  'line.has_variant_id': { variants: true },
  'line.quantity_min': { products: true, variants: true },
  'line.in_collection': { products: true, collections: true },
};

// By wire code, from the codec's table (the leaves' own records): no code is a position.
const NEEDS_OF_CODE = new Map<number, Partial<TreeNeeds>>(LEAF_CODEC.map(([code, type]) => [code, LINE_NEEDS[type] ?? NONE]));

/**
 * The line facts any of `trees` (compact) compares.
 *
 * @example treeNeeds([[0, 5000], ['|', [4, 8], [10, 'vip']]]) // { products: true, variants: false, collections: false }
 */
export function treeNeeds(trees: ReadonlyArray<unknown>): TreeNeeds {
  const needs: TreeNeeds = { products: false, variants: false, collections: false };
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
      const leaf = NEEDS_OF_CODE.get(head < 0 ? ~head : head);
      if (leaf === undefined) return { ...ALL };
      if (leaf.products === true) needs.products = true;
      if (leaf.variants === true) needs.variants = true;
      if (leaf.collections === true) needs.collections = true;
    }
  }
  return needs;
}
