import type { ConditionNode } from '../../src/index.ts';

/** `depth` NOTs wrapped around `leaf`, built in a loop (a recursive builder would overflow). */
export function nestedNots(depth: number, leaf: ConditionNode): ConditionNode {
  let node = leaf;
  for (let i = 0; i < depth; i++) node = { type: 'NOT', child: node };
  return node;
}

/** `depth` single-child ANDs wrapped around `leaf`. */
export function nestedAnds(depth: number, leaf: ConditionNode): ConditionNode {
  let node = leaf;
  for (let i = 0; i < depth; i++) node = { type: 'AND', children: [node] };
  return node;
}

export const gid = {
  product: (n: number | string) => `gid://shopify/Product/${n}`,
  variant: (n: number | string) => `gid://shopify/ProductVariant/${n}`,
  plan: (n: number | string) => `gid://shopify/SellingPlan/${n}`,
  collection: (n: number | string) => `gid://shopify/Collection/${n}`,
};
