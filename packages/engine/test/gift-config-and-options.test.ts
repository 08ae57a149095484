import { describe, expect, it } from 'vitest';
import { RULE_OPTION_DEFAULTS, giftConfigSchema, ruleOptionsSchema } from '../src/index.ts';
import { gid } from './support/trees.ts';

describe('giftConfigSchema', () => {
  const gift = { variantId: gid.variant(1), quantity: 1 };
  it('defaults fallbackOnOOS to false', () => {
    expect(giftConfigSchema.parse({ type: 'fixed', gifts: [gift] })).toEqual({ type: 'fixed', gifts: [gift], fallbackOnOOS: false });
  });
  it.each([
    ['no gifts', { type: 'fixed', gifts: [] }],
    ['other type', { type: 'tiered', gifts: [gift] }],
    ['product gid', { type: 'fixed', gifts: [{ variantId: gid.product(1), quantity: 1 }] }],
    ['zero quantity', { type: 'fixed', gifts: [{ ...gift, quantity: 0 }] }],
    ['fractional quantity', { type: 'fixed', gifts: [{ ...gift, quantity: 1.5 }] }],
  ])('rejects %s', (_name, config) => {
    expect(giftConfigSchema.safeParse(config).success).toBe(false);
  });
});

describe('ruleOptionsSchema', () => {
  it('fills a missing object and missing fields with defaults', () => {
    expect(ruleOptionsSchema.parse(undefined)).toEqual(RULE_OPTION_DEFAULTS);
    expect(ruleOptionsSchema.parse({ actionType: 'customer_choice' })).toEqual({ ...RULE_OPTION_DEFAULTS, actionType: 'customer_choice' });
  });
  it('caps percentages at 100 on the discountValue path', () => {
    const result = ruleOptionsSchema.safeParse({ discountValue: 101 });
    expect(result.error?.issues[0]?.path).toEqual(['discountValue']);
    expect(ruleOptionsSchema.safeParse({ discountType: 'fixed_amount', discountValue: 500 }).success).toBe(true);
  });
  it('rejects negative values and unknown enums', () => {
    expect(ruleOptionsSchema.safeParse({ discountValue: -1 }).success).toBe(false);
    expect(ruleOptionsSchema.safeParse({ actionType: 'maybe' }).success).toBe(false);
    expect(ruleOptionsSchema.safeParse({ discountMethod: 'code' }).success).toBe(false);
  });
});
