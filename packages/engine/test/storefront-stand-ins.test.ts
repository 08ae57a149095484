import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileConditionProgram } from '../src/compile/condition-program.ts';
import * as objectCache from '../src/compile/rules-cache-object.ts';
import * as versionCache from '../src/compile/rules-cache.ts';
import * as interpreted from '../src/compile/condition-program-interpreted.ts';
import * as outcomeTable from '../src/evaluate/outcome-table.ts';
import * as packedOutcomes from '../src/evaluate/outcome-table-packed.ts';
import { prepareContext } from '../src/evaluate/prepare-context.ts';
import { thresholdResolver } from '../src/evaluate/threshold.ts';
import * as plainThreshold from '../src/evaluate/threshold-plain.ts';
import { idKeyOf } from '../src/ids.ts';
import { fnv1a32 } from '../src/planner/fnv1a.ts';
import * as encoderHash from '../src/planner/fnv1a-encoder.ts';
import * as plainIds from '../src/ids-plain.ts';
import { contextArb, leafArb, treeArb } from './support/arbitraries.ts';
import { line, context, USD } from './support/contexts.ts';
import { payload, rule } from './support/payloads.ts';
import { nestedAnds, nestedNots } from './support/trees.ts';

// The storefront build (packages/storefront/scripts/build-script.ts) swaps these engine modules
// for smaller stand-ins: each must answer exactly as its original, for any input.

describe('ids-plain.ts agrees with ids.ts', () => {
  const digits = fc.stringMatching(/^[0-9]{0,20}$/);
  const piece = fc.oneof(
    digits,
    fc.constantFrom('gid://', 'gid://shopify/Product/', '/', '?', '?x=1', ' ', '\t', '\n', '\r', '\u00a0', 'gid:/', 'x', '0', '00', '-', '.'),
    fc.string({ maxLength: 3 }),
  );
  const value = fc.oneof(
    fc.array(piece, { maxLength: 5 }).map((pieces) => pieces.join('')),
    fc.oneof(fc.integer(), fc.double(), fc.constantFrom(2 ** 53, 2 ** 53 - 1, -0, null, undefined, {}, [], true)),
  );

  it('on every id key and numeric id', () => {
    fc.assert(
      fc.property(value, (input) => {
        expect(plainIds.idKeyOf(input)).toStrictEqual(idKeyOf(input));
        expect(plainIds.numericIdOf(input)).toBe(idKeyOf(input) === undefined ? undefined : String(idKeyOf(input)));
      }),
      { numRuns: 20_000 },
    );
  });

  it.each<unknown>([
    'gid://shopify/Product/42', '  gid://shopify/ProductVariant/007 ', 'gid://shopify/Product/42?foo=bar', 'gid://a?b/42', '42\n',
    '123456789012345', '1234567890123456', '9007199254740993', '0009007199254740993', 'gid://shopify/Product/', 'gid://x/4a', 'gid://7', 'gid://', '',
  ])('%j', (input) => {
    expect(plainIds.idKeyOf(input)).toStrictEqual(idKeyOf(input));
  });
});

describe('outcome-table-packed.ts agrees with outcome-table.ts', () => {
  it('exports the same outcomes under the same names, each frozen', () => {
    expect(Object.keys(packedOutcomes).sort()).toEqual(Object.keys(outcomeTable).sort());
    for (const [name, original] of Object.entries(outcomeTable)) {
      const packed: unknown = packedOutcomes[name as keyof typeof packedOutcomes];
      expect(packed, name).toStrictEqual(original);
      const outcomes = 'reason' in original ? [packed] : Object.values(packed as object);
      expect(outcomes.every((outcome) => Object.isFrozen(outcome)), name).toBe(true);
    }
  });
});

describe('rules-cache-object.ts keeps the object memo of rules-cache.ts', () => {
  it('compiles a payload object once, and a payload of the same version again (no version cache)', () => {
    let compiles = 0;
    const compile = (input: { version?: unknown }) => {
      compiles++;
      return { compiled: compiles, version: input.version } as never;
    };
    const fresh = () => payload([rule('r1', { type: 'cart.item_count_gte', value: 1 })], { version: 'etag-1' });
    const once = fresh();
    expect(objectCache.cachedCompile(once, compile)).toBe(objectCache.cachedCompile(once, compile));
    expect(compiles).toBe(1);
    const first = fresh();
    expect(versionCache.cachedCompile({ ...first }, compile)).toBe(versionCache.cachedCompile(first, compile));
    expect(compiles).toBe(2);
    const other = fresh();
    expect(objectCache.cachedCompile({ ...other }, compile)).not.toBe(objectCache.cachedCompile(other, compile));
    expect(compiles).toBe(4);
  });
});

describe('fnv1a-encoder.ts agrees with fnv1a.ts', () => {
  // Any UTF-16: paired and lone surrogates, in any order, and every code point range.
  const utf16 = fc.array(fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0xd800, max: 0xdfff })), { maxLength: 12 }).map((units) => String.fromCharCode(...units));

  it('on any string', () => {
    fc.assert(
      fc.property(fc.oneof(utf16, fc.string({ unit: 'binary' }), fc.string()), (text) => {
        expect(encoderHash.fnv1a32(text)).toBe(fnv1a32(text));
      }),
      { numRuns: 20_000 },
    );
  });

  it.each(['', 'a', 'visitor-1:exp_1', 'é', '€', '😀', '\ud800', 'x\udc00y', '\udc00\ud800', '\ud83d\ude00\ud83d'])('%j', (text) => {
    expect(encoderHash.fnv1a32(text)).toBe(fnv1a32(text));
  });
});

describe('threshold-plain.ts agrees with threshold.ts', () => {
  // Keys that fold together (case, spaces), so that first-hit-wins is put to the test.
  const key = fc.constantFrom('eu', ' EU ', 'Eu', 'us', 'EUR', 'eur ', 'USD', 'usd', '', ' ');
  const amount = fc.oneof(fc.integer({ min: -5, max: 10_000 }), fc.constantFrom<unknown>(undefined, null, 'x', Number.NaN));
  const overrides = fc.oneof(fc.array(fc.tuple(key, amount), { maxLength: 5 }).map((entries) => Object.fromEntries(entries)), fc.constantFrom<unknown>(undefined, null, [], 'x'));
  const leaf = fc.record({ type: fc.constant('cart.subtotal_gte' as const), value: amount, marketOverrides: overrides, currencyOverrides: overrides });
  const place = fc.record({ currency: fc.constantFrom('EUR', 'USD', ''), baseCurrency: fc.constantFrom('EUR', 'USD'), marketHandle: fc.constantFrom(undefined, 'eu', 'us', '') });

  it('on any leaf and place', () => {
    fc.assert(
      fc.property(leaf, place, (input, where) => {
        const threshold = input as Parameters<typeof thresholdResolver>[0];
        expect(plainThreshold.thresholdResolver(threshold)(where)).toStrictEqual(thresholdResolver(threshold)(where));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('condition-program-interpreted.ts agrees with condition-program.ts', () => {
  const malformed = fc.constantFrom<unknown>(null, 5, 'AND', [], { type: 'AND' }, { type: 'OR', children: 'x' }, { type: 'NOT' }, { type: 'NOT', child: 3 }, { type: 'nope' }, {});
  const anyTree: fc.Arbitrary<unknown> = fc.letrec<{ node: unknown }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leafArb,
      malformed,
      fc.record({ type: fc.constantFrom('AND', 'OR'), children: fc.array(tie('node'), { maxLength: 3 }) }),
      fc.record({ type: fc.constant('NOT'), child: tie('node') }),
    ),
  })).node;

  it('on the match, the reasons, the size and the depth of any tree, malformed nodes included', () => {
    fc.assert(
      fc.property(fc.oneof(treeArb, anyTree), contextArb, (tree, ctx) => {
        const prepared = prepareContext(ctx, USD);
        const program = compileConditionProgram(tree);
        const standIn = interpreted.compileConditionProgram(tree);
        expect(standIn.run(prepared)).toEqual(program.run(prepared));
        expect([standIn.size, standIn.depth]).toEqual([program.size, program.depth]);
      }),
      { numRuns: 3000 },
    );
  });

  it('runs trees of any depth without recursing', () => {
    const leaf = { type: 'cart.item_count_gte', value: 1 } as const;
    const prepared = prepareContext(context([line()]), USD);
    for (const tree of [nestedNots(100_001, leaf), nestedAnds(100_000, leaf)]) {
      expect(interpreted.compileConditionProgram(tree).run(prepared)).toEqual(compileConditionProgram(tree).run(prepared));
    }
  });
});
