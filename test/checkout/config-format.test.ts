/**
 * The configuration's format 2 (docs/checkout-function.md "Rules as texts"): each rule is one
 * JSON string, its JSON with `"` and `'` swapped, which the built function (in QuickJS, as the
 * platform runs it) parses only when a cart claims the rule. The encoding round-trips any
 * content, the function still reads format 1, a malformed text drops only its rule, and the
 * rules keep their order.
 */
import fc from 'fast-check';
import { buildCheckoutConfig, compactRules, decodeRule, encodeRule, keyOf, runGiftDiscount } from '@gcrs/engine/checkout';
import type { CheckoutFunctionConfig, CheckoutFunctionConfigV1, CompactRule, GiftFunctionInput } from '@gcrs/engine/checkout';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFunction } from '../../scripts/build-function.ts';
import { loadFunctionInQuickJs } from '../../dev/checkout/quickjs-function.ts';
import type { QuickJsFunction } from '../../dev/checkout/quickjs-function.ts';
import { discounted, functionInput, giftLine, hundredRuleConfig, plainLine, ruleIdOf, shopPayload, twoHundredLineCart } from '../support/checkout-shop.ts';
import type { FunctionResult } from '../support/checkout-shop.ts';

let fn: QuickJsFunction;
beforeAll(async () => {
  fn = await loadFunctionInQuickJs((await buildFunction({ write: false })).code);
});
afterAll(() => fn.dispose());

const run = (input: GiftFunctionInput) => fn.run(input) as FunctionResult;

/** The same configuration in format 1, as a server before format 2 wrote it. */
function asFormat1(config: CheckoutFunctionConfig): CheckoutFunctionConfigV1 {
  const { r: _texts, r2: _more, x: _exclusive, v: _version, ...header } = config;
  return { ...header, v: 1, r: compactRules(config) as CompactRule[] };
}

// Strings as a merchant may type them (tags, ids): quotes, apostrophes, backslashes, escapes
// spelled out, unicode beyond the BMP and lone surrogates.
const tricky = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.constantFrom('it\'s', '"quoted"', '\\', '\\u0027', '\'"\'', 'Cadeau \u00e0 l\'\u00e9t\u00e9', '\ud83c\udf81', '\ud800', '\n\t'),
);
const field = fc.oneof(fc.integer(), tricky, fc.constant(null), fc.array(fc.oneof(fc.integer(), tricky)), fc.dictionary(tricky, fc.integer()));

describe('a rule as one JSON string', () => {
  it('round-trips exactly, whatever its strings hold, and needs no quote escaped in the metafield', () => {
    fc.assert(
      fc.property(tricky, fc.array(field, { minLength: 1, maxLength: 8 }), (key, fields) => {
        const rule = [key, ...fields] as unknown as CompactRule;
        const text = encodeRule(rule);
        expect(text).not.toContain('"');
        expect(JSON.stringify(text)).not.toContain('\\"');
        expect(decodeRule(key, text)).toEqual(JSON.parse(JSON.stringify(rule)));
      }),
      { numRuns: 1000 },
    );
  });

  it('a tag with quotes, apostrophes, backslashes or unicode matches at checkout exactly as written', () => {
    fc.assert(
      fc.property(tricky.filter((tag) => tag.trim() === tag && tag !== ''), (tag) => {
        const payload = shopPayload(1);
        const [rule] = payload.rules;
        if (rule === undefined) throw new Error('fixture');
        rule.conditionTree = { type: 'customer.tag_in', value: [tag] } as never;
        const { config } = buildCheckoutConfig(payload);
        expect(compactRules(config)[0]?.[2]).toEqual([10, tag]);
        const claim = (tags: string[]) => discounted(run(functionInput(config, [plainLine(0, '60.00'), giftLine(1, 0)], { tags })));
        expect(claim([tag])).toEqual({ 'gid://shopify/CartLine/g1': 1 });
        expect(claim([`${tag}x`])).toEqual({});
      }),
      { numRuns: 100 },
    );
  });

  it('writes format 2: texts by key, in the rules\' order, with `x` only when a rule is exclusive', () => {
    const { config } = hundredRuleConfig();
    expect(config.v).toBe(2);
    expect(Object.keys(config.r)).toEqual(shopPayload(100).rules.map((r) => keyOf(r.id)));
    expect(config.r[keyOf(ruleIdOf(1))]).toBe("0,[[0,5100,{'EUR':4700}],['|',[4,8000000000001],[10,'vip']]],[[45000000090010,2]]");
    expect(config).not.toHaveProperty('x');
    const payload = shopPayload(3);
    payload.rules[2] = { ...payload.rules[2], options: { ...payload.rules[2]?.options, exclusive: true } } as (typeof payload.rules)[number];
    expect(buildCheckoutConfig(payload).config.x).toBe(1);
  });
});

describe('format 1, written before, still reads', () => {
  const cases: Array<[string, CheckoutFunctionConfig, GiftFunctionInput['cart']['lines'], number]> = [
    ['the 200-line cart', hundredRuleConfig().config, twoHundredLineCart(), 4],
    // Rule 2 (priority 5, exclusive) matches on product 2; its gift is not in the cart.
    ['an unclaimed exclusive rule suppresses', exclusiveConfig(), [plainLine(0, '60.00'), plainLine(1, '60.00'), plainLine(2, '60.00'), giftLine(1, 0), giftLine(2, 1)], 0],
    ['the same cart without its product: both gifts', exclusiveConfig(), [plainLine(0, '60.00'), plainLine(1, '60.00'), giftLine(1, 0), giftLine(2, 1)], 2],
  ];
  it.each(cases)('%s: the same discounts from either format', (_name, config, lines, gifts) => {
    const v2 = run(functionInput(config, lines));
    expect(Object.keys(discounted(v2))).toHaveLength(gifts);
    expect(run(functionInput(asFormat1(config) as unknown as CheckoutFunctionConfig, lines))).toEqual(v2);
    expect(v2).toEqual(runGiftDiscount(functionInput(config, lines)));
  });
});

function exclusiveConfig(): CheckoutFunctionConfig {
  const payload = shopPayload(3);
  payload.rules[2] = { ...payload.rules[2], options: { ...payload.rules[2]?.options, priority: 5, exclusive: true } } as (typeof payload.rules)[number];
  return buildCheckoutConfig(payload).config;
}

describe('the function trusts a text no more than an array', () => {
  const { config } = buildCheckoutConfig(shopPayload(3));
  const cart = [plainLine(0, '60.00'), plainLine(1, '60.00'), giftLine(0, 0), giftLine(1, 1)];
  it.each([
    ['not JSON', '0,[0,'],
    ['two values glued', '0],[1'],
    ['an object', "{'a':1}"],
    ['an unknown campaign', "7,[0,5000],[45000000090000]"],
    ['empty', ''],
  ])('a rule whose text is %s is dropped; the others still give', (_name, text) => {
    const broken: CheckoutFunctionConfig = { ...config, r: { ...config.r, [keyOf(ruleIdOf(0))]: text } };
    expect(discounted(run(functionInput(broken, cart)))).toEqual({ 'gid://shopify/CartLine/g1': 1 });
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])('a claim naming %s finds no rule', (ruleId) => {
    const forged = giftLine(5, 0, { ruleId });
    expect(discounted(run(functionInput(config, [plainLine(0, '60.00'), forged])))).toEqual({});
  });
});

describe('keys keep the rules\' order', () => {
  // An all-digit key would be listed first by any JSON object: such a rule keeps its full id.
  const allDigits = (key: string) => /^[1-9]\d*$/.test(key);
  const firstId = (id: (n: number) => string) => {
    for (let n = 1; ; n++) if (allDigits(keyOf(id(n)))) return id(n);
  };
  const digitId = firstId((n) => `rul_${n}`);
  const digitsOnly = firstId(String);

  it('a rule whose key would be all digits is keyed by its full id, in place, and still discounted', () => {
    const payload = shopPayload(3);
    const [, second] = payload.rules;
    if (second === undefined) throw new Error('fixture');
    second.id = digitId;
    const { config, excluded } = buildCheckoutConfig(payload);
    expect(excluded).toEqual([]);
    expect(Object.keys(config.r)).toEqual([keyOf(ruleIdOf(0)), digitId, keyOf(ruleIdOf(2))]);
    const lines = [plainLine(1, '60.00'), giftLine(1, 1, { ruleId: digitId })];
    expect(discounted(run(functionInput(config, lines)))).toEqual({ 'gid://shopify/CartLine/g1': 1 });
  });

  it('a rule whose id and key are both all digits is left out as invalid_rule', () => {
    const payload = shopPayload(2);
    const [first] = payload.rules;
    if (first === undefined) throw new Error('fixture');
    first.id = digitsOnly;
    const { config, excluded } = buildCheckoutConfig(payload);
    expect(excluded).toEqual([{ ruleId: digitsOnly, reason: 'invalid_rule' }]);
    expect(Object.keys(config.r)).toEqual([keyOf(ruleIdOf(1))]);
  });
});
