import fc from 'fast-check';
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import type { EvaluationContext, EvaluationContextInput } from '../src/index.ts';
import { compileRules, evaluateCondition, evaluationContextSchema, lineAttributesSchema, planCart } from '../src/index.ts';
import { contextArb, giftLineArb, treeArb } from './support/arbitraries.ts';
import { payload, rule } from './support/payloads.ts';

const asList = (attributes: Record<string, string> | undefined) =>
  attributes === undefined ? undefined : Object.entries(attributes).map(([key, value]) => ({ key, value }));

/** The same context with every line's attributes in the platform's list form. */
function listForm(ctx: EvaluationContext): EvaluationContextInput {
  return { ...ctx, cart: { ...ctx.cart, lines: ctx.cart.lines.map((line) => ({ ...line, attributes: asList(line.attributes) })) } };
}

describe('line attributes', () => {
  it.each([
    ['an object, as given', { gift_wrap: 'yes' }, { gift_wrap: 'yes' }],
    ['a list', [{ key: 'gift_wrap', value: 'yes' }, { key: '_collections', value: 'winter' }], { gift_wrap: 'yes', _collections: 'winter' }],
    ['an empty list', [], {}],
    ['a null value (unset) left out', [{ key: 'gift_wrap', value: null }, { key: 'note', value: '' }], { note: '' }],
    ['a repeated key: the last wins', [{ key: 'k', value: '1' }, { key: 'k', value: '2' }], { k: '2' }],
  ])('parse %s', (_name, input, expected) => {
    expect(lineAttributesSchema.parse(input)).toEqual(expected);
  });

  it('keeps __proto__ an ordinary attribute in the list form', () => {
    const parsed = lineAttributesSchema.parse([{ key: '__proto__', value: 'x' }]);
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.hasOwn(parsed, '__proto__')).toBe(true);
  });

  it.each([
    ['a number key', [{ key: 1, value: 'x' }]],
    ['a missing value', [{ key: 'k' }]],
    ['a number value', [{ key: 'k', value: 1 }]],
    ['a list of strings', ['k']],
    ['an object of numbers', { k: 1 }],
    ['a NUL in a list value', [{ key: 'k', value: 'a\u0000' }]],
    ['a lone surrogate in a list key', [{ key: '\uD800', value: 'v' }]],
    ['a NUL in an object value', { k: 'a\u0000' }],
  ])('reject %s', (_name, input) => {
    expect(lineAttributesSchema.safeParse(input).success).toBe(false);
  });

  it.each([
    ['a list entry', [{ key: 'k', value: 1 }], ['cart', 'lines', 0, 'attributes', 0, 'value']],
    ['an object entry', { k: 1 }, ['cart', 'lines', 0, 'attributes', 'k']],
    ['neither form', 'k=v', ['cart', 'lines', 0, 'attributes']],
  ])('reports the exact path of a bad %s inside a context', (_name, attributes, path) => {
    const result = evaluationContextSchema.safeParse({ cart: { currency: 'USD', lines: [{ productId: '1', variantId: '2', quantity: 1, price: 1, attributes }] } });
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([path]);
  });

  it('describes both forms in JSON Schema', () => {
    expect(z.toJSONSchema(lineAttributesSchema, { io: 'input' })).toMatchObject({
      anyOf: [{ type: 'object', additionalProperties: { type: 'string' } }, { type: 'array', items: { required: ['key', 'value'] } }],
    });
  });

  it('gives the same evaluation and plan for both forms (property)', () => {
    const compiled = compileRules(payload([rule('r1', { type: 'line.property_equals', key: 'wrap', value: 'yes' }), rule('r2', { type: 'cart.subtotal_gte', value: 100 })]));
    fc.assert(
      fc.property(treeArb, contextArb, fc.array(giftLineArb, { maxLength: 2 }), (tree, base, gifts) => {
        const ctx: EvaluationContext = { ...base, cart: { ...base.cart, lines: [...base.cart.lines, ...gifts] } };
        const fromObject = evaluationContextSchema.parse(ctx);
        const fromList = evaluationContextSchema.parse(listForm(ctx));
        expect(fromList).toEqual(fromObject);
        expect(evaluateCondition(tree, fromList, { baseCurrency: 'USD' })).toEqual(evaluateCondition(tree, fromObject, { baseCurrency: 'USD' }));
        expect(planCart(compiled, fromList)).toEqual(planCart(compiled, fromObject));
      }),
      { numRuns: 300 },
    );
  });
});
