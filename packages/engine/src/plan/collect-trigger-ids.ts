import type { ConditionNode } from '../schema/condition-node.ts';

/**
 * The products and variants a tree's conditions name (`line.has_product_id`,
 * `line.has_variant_id`, `line.quantity_min`), deduplicated in first-seen order, for the
 * enable health check. Values are returned as written in the rule: a gid, or a numeric id
 * (as a string) where SPEC allows one. Iterative, so any depth is fine.
 *
 * @example
 * collectTriggerIds({ type: 'line.has_product_id', value: 'gid://shopify/Product/1' })
 * // { productIds: ['gid://shopify/Product/1'], variantIds: [] }
 */
export function collectTriggerIds(tree: ConditionNode): {
  productIds: string[];
  variantIds: string[];
} {
  const products = new Set<string>();
  const variants = new Set<string>();
  const stack: ConditionNode[] = [tree];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    switch (node.type) {
      case 'AND':
      case 'OR':
        for (let i = node.children.length - 1; i >= 0; i--) {
          const child = node.children[i];
          if (child !== undefined) stack.push(child);
        }
        break;
      case 'NOT':
        stack.push(node.child);
        break;
      case 'line.has_product_id':
        products.add(String(node.value));
        break;
      case 'line.has_variant_id':
        variants.add(String(node.value));
        break;
      case 'line.quantity_min':
        // Both are named even though variantId wins at evaluation: the health check
        // should warn about any trigger product the merchant wrote down.
        if (node.productId !== undefined) products.add(node.productId);
        if (node.variantId !== undefined) variants.add(node.variantId);
        break;
      default:
        break;
    }
  }
  return { productIds: [...products], variantIds: [...variants] };
}
