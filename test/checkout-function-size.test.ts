// The checkout function within the platform's size limits (issue 22 item 3, CONTRACT
// "Checkout"), through the built bundle in QuickJS: the output of a 200-line cart with the
// platform's line ids stays within 20,000 bytes (merged, then cut in the documented order),
// and a configuration of 100 depth-4 rules is spread over the two metafields the function reads.
import fc from 'fast-check';
import {
  CONFIG_METAFIELD_KEYS,
  FUNCTION_INPUT_LIMIT_BYTES,
  FUNCTION_INPUT_LINES,
  FUNCTION_OUTPUT_LIMIT_BYTES,
  buildCheckoutConfig,
  compactRules,
  decodeTree,
  encodeTree,
  estimateFunctionInput,
  fitOutput,
  inputSizeParts,
  joinCheckoutConfig,
  runGiftDiscount,
  splitCheckoutConfig,
} from '@gcrs/engine/checkout';
import type { CheckoutFunctionConfig, GiftDiscountCandidate, GiftFunctionInput, GiftFunctionResult, InputSizeParts } from '@gcrs/engine/checkout';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFunction } from '../scripts/build-function.ts';
import { loadFunctionInQuickJs } from '../dev/checkout/quickjs-function.ts';
import type { QuickJsFunction } from '../dev/checkout/quickjs-function.ts';
import { cartLineId, collectionGid, deepShopConfig, fullInput, manyGiftsCart, perRuleBytes, withRealId } from './support/checkout-deep-shop.ts';
import type { DiscountResult as Result } from './support/checkout-deep-shop.ts';
import { campaignIdOf, functionInput, giftLine, hundredRuleConfig, plainLine, ruleIdOf, shopPayload } from './support/checkout-shop.ts';

let fn: QuickJsFunction;
beforeAll(async () => {
  fn = await loadFunctionInQuickJs((await buildFunction({ write: false })).code);
});
afterAll(() => fn.dispose());

/** The output as the platform receives it: the JSON the function writes, and its bytes. */
const runJson = (input: GiftFunctionInput) => {
  const result = fn.run(input) as Result;
  return { result, bytes: Buffer.byteLength(JSON.stringify(result)) };
};
/** Line id → [quantity, value, message] of every target. */
const targets = (result: Result) =>
  new Map(result.operations.flatMap((op) => op.productDiscountsAdd.candidates.flatMap((c) => c.targets.map((t) => [t.cartLine.id, [t.cartLine.quantity, JSON.stringify(c.value), c.message]] as const))));

/** Bytes of `out`'s JSON with `candidate`'s one target added, to its discount's candidate if it has one. */
function bytesWith(out: GiftFunctionResult, candidate: GiftDiscountCandidate): number {
  const candidates = structuredClone(out.operations[0]?.productDiscountsAdd.candidates ?? []);
  const same = candidates.find((c) => JSON.stringify(c.value) === JSON.stringify(candidate.value) && c.message === candidate.message);
  if (same === undefined) candidates.push(candidate);
  else same.targets.push(...candidate.targets);
  return Buffer.byteLength(JSON.stringify({ operations: [{ productDiscountsAdd: { candidates, selectionStrategy: 'ALL' } }] }));
}

describe('output ≤ 20,000 bytes', () => {
  it('150 gift lines of a 200-line cart with the platform line ids: 22.8 KB as one candidate per rule, merged under the limit, nothing lost', () => {
    const input = functionInput(hundredRuleConfig().config, manyGiftsCart(), { tags: ['vip'] });
    expect(input.cart.lines).toHaveLength(200);
    expect(input.cart.lines[0]?.id).toMatch(/^gid:\/\/shopify\/CartLine\/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
    const { result, bytes } = runJson(input);
    console.log(`200-line cart, 150 gift lines: output ${bytes} bytes merged, ${perRuleBytes(input, result)} as one candidate per rule (limit ${FUNCTION_OUTPUT_LIMIT_BYTES})`);
    expect(perRuleBytes(input, result)).toBeGreaterThan(FUNCTION_OUTPUT_LIMIT_BYTES);
    expect(bytes).toBeLessThanOrEqual(FUNCTION_OUTPUT_LIMIT_BYTES);
    // Two discounts (100 % "Free gift", 5.00 "Gift: 5 off"): two candidates, every gift unit kept.
    expect(result.operations[0]?.productDiscountsAdd.candidates.map((c) => c.message).sort()).toEqual(['Free gift', 'Gift: 5 off']);
    const units = [...targets(result).values()].reduce((sum, [quantity]) => sum + Number(quantity), 0);
    expect(units).toBe(150);
    expect(result).toEqual(runGiftDiscount(input));
  });

  // 199 rules, each its own title (nothing merges), rules 150–159 with priority 5.
  const distinct = shopPayload(199);
  const payload = {
    ...distinct,
    rules: distinct.rules.map((rule, r) => ({ ...rule, options: { ...rule.options, discountTitle: `Gift ${r}`, ...(r >= 150 && r < 160 ? { priority: 5 } : {}) } })),
  };
  const config = buildCheckoutConfig(payload).config;
  const cart = [withRealId(plainLine(0, '900.00'), 0), ...Array.from({ length: 199 }, (_, r) => withRealId(giftLine(r, r), r + 1))];

  it('when merging is not enough, keeps the higher priority first, then configuration order, and never exceeds the limit', () => {
    const input = functionInput(config, cart, { tags: ['vip'] });
    const { result, bytes } = runJson(input);
    expect(perRuleBytes(input, result)).toBeLessThanOrEqual(bytes); // nothing merged
    expect(bytes).toBeLessThanOrEqual(FUNCTION_OUTPUT_LIMIT_BYTES);
    expect(bytes).toBeGreaterThan(FUNCTION_OUTPUT_LIMIT_BYTES - 200); // one more target would not fit
    const kept = [...targets(result).keys()].map((id) => cart.findIndex((line) => line.id === id) - 1);
    const priority = Array.from({ length: 10 }, (_, i) => 150 + i);
    const rest = kept.filter((r) => !priority.includes(r));
    expect(kept.slice(0, 10)).toEqual(priority);
    expect(rest).toEqual(Array.from({ length: rest.length }, (_, i) => i));
    console.log(`199 distinct discounts: ${kept.length} kept, output ${bytes} bytes`);
    expect(result).toEqual(runGiftDiscount(input));
  });

  it('keeps each target exactly as computed (quantity, value, message)', () => {
    const input = functionInput(config, cart.slice(0, 40), { tags: ['vip'] });
    const whole = targets(runJson(input).result);
    expect(whole.size).toBe(39); // small enough: nothing dropped
    const cut = targets(runJson(functionInput(config, cart, { tags: ['vip'] })).result);
    for (const [id, target] of cut) if (whole.has(id)) expect(target).toEqual(whole.get(id));
    expect(whole.get(cartLineId(3))).toEqual([1, JSON.stringify({ fixedAmount: { amount: '5.00', appliesToEachItem: true } }), 'Gift 2']);
  });

  it('fitOutput counts bytes, not characters: a title of 3-byte characters that fits by length only is cut', () => {
    // The fast path takes a text of at most limit / 3 UTF-16 units without counting its bytes.
    const candidate = { targets: [{ cartLine: { id: cartLineId(0), quantity: 1 } }], value: { percentage: { value: '100' } }, message: '無'.repeat(300) };
    const rule = { priority: 0 };
    const whole = fitOutput(new Map([[rule, candidate]]), () => [rule], Infinity);
    const text = JSON.stringify(whole);
    expect(fitOutput(new Map([[rule, candidate]]), () => [rule], text.length + 10)).toEqual({ operations: [] });
    expect(fitOutput(new Map([[rule, candidate]]), () => [rule], Buffer.byteLength(text))).toEqual(whole);
  });

  it('fitOutput: any candidates, at most the limit, only targets it was given, all of them when they fit, none left out that fits', () => {
    const value = fc.oneof(fc.constant({ percentage: { value: '100' } }), fc.constant({ fixedAmount: { amount: '5.00', appliesToEachItem: true as const } }));
    const rule = fc.record({ priority: fc.integer({ min: 0, max: 3 }), message: fc.constantFrom('Free gift', 'Cadeau offert – merci', 'Gift', 'Geschenk für dich 🎁', '贈り物'), value, lines: fc.integer({ min: 1, max: 4 }) });
    fc.assert(
      fc.property(fc.array(rule, { minLength: 1, maxLength: 60 }), fc.integer({ min: 300, max: 20_000 }), (rules, limit) => {
        let line = 0;
        const byRule = new Map(rules.map((r) => [r, { targets: Array.from({ length: r.lines }, () => ({ cartLine: { id: cartLineId(line++), quantity: 1 } })), value: r.value, message: r.message }]));
        const out = fitOutput(byRule, () => rules, limit);
        const bytes = Buffer.byteLength(JSON.stringify(out));
        const given = new Map([...byRule.values()].flatMap((c) => c.targets.map((t) => [t.cartLine.id, `${JSON.stringify(c.value)} ${c.message}`])));
        const kept = out.operations.flatMap((op) => op.productDiscountsAdd.candidates.flatMap((c) => c.targets.map((t) => [t.cartLine.id, `${JSON.stringify(c.value)} ${c.message}`] as const)));
        expect(bytes).toBeLessThanOrEqual(limit);
        for (const [id, discount] of kept) expect(given.get(id)).toBe(discount);
        expect(new Set(kept.map(([id]) => id)).size).toBe(kept.length);
        const all = fitOutput(byRule, () => rules, Infinity);
        if (Buffer.byteLength(JSON.stringify(all)) <= limit) expect(out).toEqual(all);
        // Every target is the same size, so one left out would not fit even now: the count is exact.
        const keptIds = new Set(kept.map(([id]) => id));
        for (const c of byRule.values()) for (const t of c.targets) if (!keptIds.has(t.cartLine.id)) expect(bytesWith(out, { ...c, targets: [t] })).toBeGreaterThan(limit);
      }),
      { numRuns: 200 },
    );
  });
});

describe('configuration over two metafields', () => {
  it('100 depth-4 rules, over one metafield, fit two: split in rule order, joined back exactly', () => {
    const built = deepShopConfig(100);
    expect(Buffer.byteLength(JSON.stringify(built.config))).toBeGreaterThan(10_000);
    console.log(`100 depth-4 rules: ${built.bytes} bytes, metafields ${built.metafields.map((m) => `${m.key} ${m.bytes}`).join(', ')}, vars ${built.variablesBytes} (limit 10000 each)`);
    expect(built.fits).toBe(true);
    expect(built.metafields.map((m) => m.key)).toEqual([...CONFIG_METAFIELD_KEYS]);
    for (const metafield of built.metafields) expect(metafield.bytes).toBeLessThanOrEqual(10_000);
    const [first, second] = built.metafields.map((m) => JSON.parse(m.value) as { g?: string; r: Record<string, string> });
    expect(first?.g).toMatch(/^.{4}$/);
    expect(second?.g).toBe(first?.g);
    expect(Object.keys(first?.r ?? {}).length + Object.keys(second?.r ?? {}).length).toBe(100);
    // config2's rules come back as `r2` (not merged: that would copy every rule in the function).
    const joined = joinCheckoutConfig(first, [second]);
    expect(joined).toEqual({ ...built.config, r: first?.r, r2: second?.r });
    expect(compactRules(joined as CheckoutFunctionConfig)).toEqual(compactRules(built.config));
  });

  it('reports, never cuts, what does not fit both', () => {
    const built = deepShopConfig(120);
    expect(built.fits).toBe(false);
    expect(Object.keys(built.config.r)).toHaveLength(120);
    // A small shop: everything in `config`, `config2` emptied.
    expect(splitCheckoutConfig(hundredRuleConfig().config).metafields.map((m) => [m.key, m.value === '{}'])).toEqual([['config', false], ['config2', true]]);
  });

  const built = deepShopConfig(100);
  const [config, config2] = built.metafields.map((m) => JSON.parse(m.value) as unknown);
  const lastRule = 99; // in config2
  const inputWith = (second: unknown): GiftFunctionInput => {
    const input = functionInput(built.config, [plainLine(0, '500.00'), giftLine(1, 3), giftLine(2, lastRule)], { tags: ['vip'], country: 'DE' });
    return { ...input, discount: { discountClasses: ['PRODUCT'], metafield: { jsonValue: config }, config2: second === undefined ? null : { jsonValue: second } } };
  };
  const ids = (input: GiftFunctionInput) => [...targets(runJson(input).result).keys()].sort();

  it('the function reads the rules of both metafields', () => {
    expect(Object.keys((config as CheckoutFunctionConfig).r)).not.toContain(compactRules(built.config)[lastRule]?.[0]);
    expect(ids(inputWith(config2))).toEqual(['gid://shopify/CartLine/g1', 'gid://shopify/CartLine/g2']);
    expect(runJson(inputWith(config2)).result).toEqual(runGiftDiscount(inputWith(config2)));
  });

  it.each([
    ['missing', undefined],
    ['emptied', {}],
    ['from another write', { ...(config2 as object), g: 'zzzz' }],
    ['malformed', { g: (config as { g: string }).g, r: 'x' }],
  ])('config2 %s: the rules of config still give, those of config2 do not', (_name, second) => {
    expect(ids(inputWith(second))).toEqual(['gid://shopify/CartLine/g1']);
  });
});

describe('the shorter tree spellings', () => {
  type Tree = { type: string; [field: string]: unknown };
  const leaf = fc.oneof(
    fc.record({ type: fc.constant('cart.subtotal_gte'), value: fc.integer({ min: 0, max: 99_999 }) }),
    fc.record({ type: fc.constant('customer.tag_in'), value: fc.array(fc.constantFrom('vip', 'gold'), { minLength: 2, maxLength: 2 }) }),
    fc.record({ type: fc.constant('cart.item_count_gte'), value: fc.integer({ min: 1, max: 9 }) }),
  );
  const { tree } = fc.letrec<{ tree: Tree }>((t) => ({
    tree: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.record({ type: fc.constant('NOT'), child: t('tree') }),
      fc.record({ type: fc.constantFrom('AND', 'OR'), children: fc.array(t('tree'), { maxLength: 3 }) }),
    ),
  }));
  it('decode(encode(tree)) is the tree, and the engine reads both spellings alike', () => {
    fc.assert(
      fc.property(tree, (t) => {
        expect(decodeTree(encodeTree(t))).toEqual(t);
      }),
      { numRuns: 300 },
    );
    // The long spellings still decode (a configuration written before them).
    expect(decodeTree(['&', [0, 5000], ['!', [13, 'US']]])).toEqual(decodeTree(encodeTree({ type: 'AND', children: [{ type: 'cart.subtotal_gte', value: 5000 }, { type: 'NOT', child: { type: 'country.in', value: ['US'] } }] })));
    expect(encodeTree({ type: 'AND', children: [{ type: 'cart.subtotal_gte', value: 5000 }, { type: 'NOT', child: { type: 'country.in', value: ['US'] } }] })).toEqual([[0, 5000], [-14, 'US']]);
    // An AND whose first child is unknown keeps its "&" (a bare 0 would read as a leaf code).
    expect(encodeTree({ type: 'AND', children: [{ type: 'nope' }, { type: 'cart.item_count_gte', value: 2 }] })).toEqual(['&', 0, [3, 2]]);
  });
});

describe('the input at 200 lines (platform: 128,000 bytes)', () => {
  it('fits with both metafields full and one collection asked; each collection costs about 14.6 KB at 200 lines', () => {
    const [none = 0, one = 0, two = 0] = [0, 1, 2].map((collections) => Buffer.byteLength(JSON.stringify(fullInput(collections))));
    console.log(`200-line input: ${none} bytes with no collection asked, ${one} with one, ${two} with two (limit 128000)`);
    expect(one).toBeLessThanOrEqual(128_000);
    expect(two - one).toBeGreaterThan(14_000);
  });

  // fullInput's configuration, tags and counts, as the estimate reads them from a build.
  const parts = (collections: number): InputSizeParts => ({
    metafieldBytes: deepShopConfig(100).metafields.map((m) => m.bytes),
    tags: Array.from({ length: 20 }, (_, i) => `tag-${i}`),
    collectionIds: Array.from({ length: collections }, (_, i) => collectionGid(i)),
    limitedRules: 100,
  });
  /** fullInput with a claim on every line: every line as large as the estimate counts it. */
  const everyLineClaimed = (collections: number) => {
    const input = fullInput(collections);
    const lines = input.cart.lines.map((line) => ({ ...line, campaignId: line.campaignId ?? { value: campaignIdOf(0) }, ruleId: line.ruleId ?? { value: ruleIdOf(0) } }));
    return { ...input, cart: { ...input.cart, lines } };
  };

  it.each([0, 1, 2, 5])('the estimate with %i collections asked: at least the real input, within 1,100 bytes (+ 2 a line per collection) of one whose every line is claimed', (collections) => {
    const estimate = estimateFunctionInput(parts(collections));
    const real = Buffer.byteLength(JSON.stringify(fullInput(collections)));
    const claimed = Buffer.byteLength(JSON.stringify(everyLineClaimed(collections)));
    expect(everyLineClaimed(collections).cart.lines).toHaveLength(FUNCTION_INPUT_LINES);
    expect(estimate).toMatchObject({ limit: FUNCTION_INPUT_LIMIT_BYTES, lines: 200, collections });
    expect(estimate.bytes).toBeGreaterThanOrEqual(claimed);
    expect(claimed).toBeGreaterThan(real);
    // The slack: room for longer prices, ids and rates; per collection, `false` for `true` and the comma after it, a line.
    expect(estimate.bytes - claimed).toBeLessThanOrEqual(1_100 + 2 * FUNCTION_INPUT_LINES * collections);
  });

  it('over the limit exactly where the real input is: both metafields full, one collection fits, two do not', () => {
    const over = (collections: number) => estimateFunctionInput(parts(collections)).bytes > FUNCTION_INPUT_LIMIT_BYTES;
    expect([0, 1, 2].map(over)).toEqual([false, false, true]);
    expect(Buffer.byteLength(JSON.stringify(everyLineClaimed(2)))).toBeGreaterThan(FUNCTION_INPUT_LIMIT_BYTES);
    // From a build: the deep shop's rules name 7 collections (r % 7), its counts none.
    const built = deepShopConfig(100);
    expect(inputSizeParts(built)).toEqual({ ...parts(7), tags: built.variables.tags, collectionIds: built.variables.collectionIds, limitedRules: 0 });
    expect(estimateFunctionInput(inputSizeParts(built)).collections).toBe(7);
    expect(over(7)).toBe(true);
  });
});
