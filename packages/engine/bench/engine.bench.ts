// Benchmark: the compiled engine (planCart over 100 rules) against json-rules-engine on
// an equivalent rule set, same carts, same run. Prints numbers; asserts nothing except
// that both engines agree on every rule of every cart (a faithful mapping).
//
//   node packages/engine/bench/engine.bench.ts [carts=2000]
//
// Leaf -> json-rules-engine mapping (facts are derived from the cart once per run by
// dynamic facts, which the almanac caches, the equivalent of our prepareContext):
//   cart.subtotal_gte / _lte  -> fact `subtotal` greaterThanInclusive / lessThanInclusive
//   cart.item_count_gte       -> fact `itemCount` greaterThanInclusive
//   line.has_product_id       -> fact `productIds` (numeric ids of non-gift lines) contains
//   line.in_collection        -> fact `collectionsInCart` (handles whose products are in the cart) contains
//   line.quantity_min         -> fact `productQuantity` with params { productId } greaterThanInclusive
//   customer.tag_in           -> fact `customerTags` (lowercased) custom operator `intersects`
//   AND / OR / NOT            -> all / any / not
import { performance } from 'node:perf_hooks';
import { Engine } from 'json-rules-engine';
import type { NestedCondition, TopLevelCondition } from 'json-rules-engine';
import type { ConditionNode, EvaluationContext, RulesPayloadInput } from '../src/index.ts';
import { compileRules, numericIdOf, planCart } from '../src/index.ts';
import { ruleGenerator } from './random-rules.ts';

const RULES = 100;
const LINES = 200;
const CARTS = Number(process.argv[2] ?? 2000);
const JRE_CARTS = Math.max(100, Math.round(CARTS / 20));
const PRODUCTS = 500;
const COLLECTIONS = 20;
const TAGS = ['vip', 'wholesale', 'new', 'returning', 'staff', 'press'];

// The same seed as before the generator was shared: the figures stay comparable across runs.
const { int, pick, productGid, randomTree } = ruleGenerator(20240601, { products: PRODUCTS, collections: COLLECTIONS, tags: TAGS });

const collections: Record<string, string[]> = {};
for (let c = 0; c < COLLECTIONS; c++) {
  collections[`collection-${c}`] = Array.from({ length: 50 }, () => productGid(int(1, PRODUCTS)));
}

const trees = Array.from({ length: RULES }, () => randomTree(4));
const payload: RulesPayloadInput = {
  baseCurrency: 'USD',
  rules: trees.map((conditionTree, i) => ({
    id: `rule-${i}`,
    campaignId: `campaign-${i % 10}`,
    conditionTree,
    giftConfig: { type: 'fixed', gifts: [{ variantId: `gid://shopify/ProductVariant/${900_000 + i}`, quantity: 1 }] },
    options: { actionType: i % 5 === 0 ? 'customer_choice' : 'auto_add' },
  })),
};

function randomCart(): EvaluationContext {
  const lines = Array.from({ length: LINES }, (_, i) => {
    const product = int(1, PRODUCTS);
    return {
      id: `line-${i}`,
      productId: productGid(product),
      variantId: `gid://shopify/ProductVariant/${product * 10 + int(0, 3)}`,
      quantity: int(1, 3),
      price: int(100, 5_000),
    };
  });
  return {
    cart: { currency: 'USD', lines },
    customer: { loggedIn: true, tags: [pick(TAGS)] },
    market: { handle: 'us', country: 'US' },
    collections,
  };
}
// Carts arrive as JSON (storefront fetch or request body), so they are parsed the same
// way here; both engines see the same flat strings. A storefront keeps one collection map
// for every cart (the engine indexes it once); `/evaluate` gets one per request body,
// measured separately below.
const perRequestCarts: EvaluationContext[] = Array.from({ length: CARTS }, () => JSON.parse(JSON.stringify(randomCart())));
const carts: EvaluationContext[] = perRequestCarts.map((ctx) => ({ ...ctx, collections }));

// --- json-rules-engine -------------------------------------------------------------
function toJre(tree: ConditionNode): NestedCondition {
  // Iterative post-order: converted children are collected before their parent.
  const converted = new Map<ConditionNode, NestedCondition>();
  const stack: Array<{ node: ConditionNode; expanded: boolean }> = [{ node: tree, expanded: false }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const { node } = top;
    if (!top.expanded && (node.type === 'AND' || node.type === 'OR' || node.type === 'NOT')) {
      stack.push({ node, expanded: true });
      for (const child of node.type === 'NOT' ? [node.child] : node.children) stack.push({ node: child, expanded: false });
      continue;
    }
    const of = (child: ConditionNode) => converted.get(child) as NestedCondition;
    let condition: NestedCondition;
    switch (node.type) {
      case 'AND': condition = { all: node.children.map(of) }; break;
      case 'OR': condition = { any: node.children.map(of) }; break;
      case 'NOT': condition = { not: of(node.child) }; break;
      case 'cart.subtotal_gte': condition = { fact: 'subtotal', operator: 'greaterThanInclusive', value: node.value }; break;
      case 'cart.subtotal_lte': condition = { fact: 'subtotal', operator: 'lessThanInclusive', value: node.value }; break;
      case 'cart.item_count_gte': condition = { fact: 'itemCount', operator: 'greaterThanInclusive', value: node.value }; break;
      case 'line.has_product_id': condition = { fact: 'productIds', operator: 'contains', value: numericIdOf(node.value) }; break;
      case 'line.in_collection': condition = { fact: 'collectionsInCart', operator: 'contains', value: node.value }; break;
      case 'line.quantity_min': condition = { fact: 'productQuantity', params: { productId: numericIdOf(node.productId) }, operator: 'greaterThanInclusive', value: node.value }; break;
      case 'customer.tag_in': condition = { fact: 'customerTags', operator: 'intersects', value: (node.value as string[]).map((t) => t.toLowerCase()) }; break;
      default: throw new Error(`no mapping for ${node.type}`);
    }
    converted.set(node, condition);
  }
  return converted.get(tree) as NestedCondition;
}

function topLevel(condition: NestedCondition): TopLevelCondition {
  return 'all' in condition || 'any' in condition || 'not' in condition ? condition : { all: [condition] };
}

const engine = new Engine(
  trees.map((tree, i) => ({ name: `rule-${i}`, conditions: topLevel(toJre(tree)), event: { type: `rule-${i}` } })),
  { allowUndefinedFacts: true },
);
engine.addOperator<string[], string[]>('intersects', (fact, value) => fact.some((tag) => value.includes(tag)));
type JreCart = EvaluationContext['cart'];
const nonGift = (cart: JreCart) => cart.lines.filter((line) => !line.attributes?.['_svc_campaign_id']);
engine.addFact('subtotal', async (_p, almanac) => nonGift(await almanac.factValue<JreCart>('cart')).reduce((sum, l) => sum + l.price * l.quantity, 0));
engine.addFact('itemCount', async (_p, almanac) => nonGift(await almanac.factValue<JreCart>('cart')).reduce((sum, l) => sum + l.quantity, 0));
engine.addFact('productIds', async (_p, almanac) => nonGift(await almanac.factValue<JreCart>('cart')).map((l) => numericIdOf(l.productId)));
engine.addFact('productQuantity', async (params: Record<string, unknown>, almanac) =>
  nonGift(await almanac.factValue<JreCart>('cart')).reduce((sum, l) => (numericIdOf(l.productId) === params['productId'] ? sum + l.quantity : sum), 0));
engine.addFact('collectionsInCart', async (_p, almanac) => {
  const inCart = new Set(await almanac.factValue<string[]>('productIds'));
  const map = await almanac.factValue<Record<string, string[]>>('collections');
  return Object.keys(map).filter((handle) => (map[handle] ?? []).some((p) => inCart.has(numericIdOf(p) ?? '')));
});

// --- measurement -------------------------------------------------------------------
function summarise(name: string, samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const total = samples.reduce((sum, s) => sum + s, 0);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const perSecond = samples.length / (total / 1000);
  console.log(`${name.padEnd(22)} ${perSecond.toFixed(0).padStart(9)} carts/s  ${(perSecond * RULES).toFixed(0).padStart(11)} rule evals/s  p50 ${at(0.5).toFixed(3)} ms  p99 ${at(0.99).toFixed(3)} ms  (${samples.length} carts)`);
  return perSecond;
}

const compiled = compileRules(payload);
const ours = (ctx: EvaluationContext) => planCart(compiled, ctx, { now: new Date(0) });
const theirs = (ctx: EvaluationContext) =>
  engine.run({ cart: ctx.cart, customerTags: ctx.customer?.tags.map((t) => t.toLowerCase()) ?? [], collections: ctx.collections ?? {} });

// Faithfulness check: both engines agree on every rule of a sample of carts.
let agreements = 0;
for (const ctx of carts.slice(0, 50)) {
  const mine = new Set(ours(ctx).results.filter((r) => r.matched).map((r) => r.ruleId));
  const jre = new Set((await theirs(ctx)).results.map((r) => r.name));
  if (mine.size !== jre.size || [...mine].some((id) => !jre.has(id))) throw new Error('engines disagree; the mapping is not faithful');
  agreements += RULES;
}

for (let i = 0; i < 200; i++) ours(carts[i % carts.length] as EvaluationContext); // warm-up
for (let i = 0; i < 20; i++) await theirs(carts[i] as EvaluationContext); // warm-up

// Interleaved rounds: this machine is shared, so both engines are measured in the same
// time windows and a load spike hits both rather than skewing the ratio.
const ROUNDS = 10;
const ourSamples: number[] = [];
const perRequestSamples: number[] = [];
const jreSamples: number[] = [];
let matchedRules = 0;
for (let round = 0; round < ROUNDS; round++) {
  const slice = <T>(items: T[], size: number) => items.slice(round * size, (round + 1) * size);
  for (const ctx of slice(carts, CARTS / ROUNDS)) {
    const start = performance.now();
    const plan = ours(ctx);
    ourSamples.push(performance.now() - start);
    matchedRules += plan.results.filter((r) => r.matched).length;
  }
  for (const ctx of slice(perRequestCarts, CARTS / ROUNDS)) {
    const start = performance.now();
    ours(ctx);
    perRequestSamples.push(performance.now() - start);
  }
  for (const ctx of slice(carts, JRE_CARTS / ROUNDS)) {
    const start = performance.now();
    await theirs(ctx);
    jreSamples.push(performance.now() - start);
  }
}

console.log(`${RULES} rules x carts of ${LINES} lines; node ${process.version}; ${agreements} rule results cross-checked equal`);
console.log(`matched rules per cart (ours): ${(matchedRules / CARTS).toFixed(1)}`);
const oursPerSecond = summarise('@gcrs/engine planCart', ourSamples);
const perRequestPerSecond = summarise('  same, map per request', perRequestSamples);
const jrePerSecond = summarise('json-rules-engine', jreSamples);
console.log(`throughput ratio: ${(oursPerSecond / jrePerSecond).toFixed(0)}x (collection map per request: ${(perRequestPerSecond / jrePerSecond).toFixed(0)}x)`);
