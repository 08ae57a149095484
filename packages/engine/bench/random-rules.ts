// The random rule sets of the benchmarks: a deterministic PRNG and condition trees over the
// leaves the engine bench can map to json-rules-engine. Shared by the engine bench and the
// service's bench:evaluate, so both measure the same kind of rules.
import type { ConditionNode } from '../src/index.ts';

export type RuleGeneratorOptions = { products: number; collections: number; tags: readonly string[] };

/** Deterministic PRNG (mulberry32): every run with the same seed measures the same rules and carts. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Random leaves and trees from one seed.
 *
 * @example
 *   const { randomTree } = ruleGenerator(20240601, { products: 500, collections: 20, tags: ['vip'] });
 *   randomTree(3); // { type: 'AND', children: [...] }
 */
export function ruleGenerator(seed: number, options: RuleGeneratorOptions) {
  const random = prng(seed);
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)] as T;
  const productGid = (n: number) => `gid://shopify/Product/${n}`;

  function randomLeaf(): ConditionNode {
    switch (int(0, 6)) {
      case 0: return { type: 'cart.subtotal_gte', value: int(0, 400_000) };
      case 1: return { type: 'cart.subtotal_lte', value: int(100_000, 800_000) };
      case 2: return { type: 'line.has_product_id', value: productGid(int(1, options.products)) };
      case 3: return { type: 'line.in_collection', value: `collection-${int(0, options.collections - 1)}` };
      case 4: return { type: 'customer.tag_in', value: [pick(options.tags), pick(options.tags)] };
      case 5: return { type: 'line.quantity_min', value: int(1, 6), productId: productGid(int(1, options.products)) };
      default: return { type: 'cart.item_count_gte', value: int(100, 500) };
    }
  }

  // Built with an explicit depth budget; no empty combinators (json-rules-engine and SPEC
  // disagree on those, so they would not be an equivalent rule set).
  function randomTree(depth: number): ConditionNode {
    if (depth === 0 || random() < 0.3) return randomLeaf();
    const roll = random();
    if (roll < 0.15) return { type: 'NOT', child: randomTree(depth - 1) };
    const children = Array.from({ length: int(2, 4) }, () => randomTree(depth - 1));
    return roll < 0.6 ? { type: 'AND', children } : { type: 'OR', children };
  }

  return { random, int, pick, productGid, randomLeaf, randomTree };
}
