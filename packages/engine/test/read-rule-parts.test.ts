import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readGiftConfig, readRuleOptions, readShopSettings } from '../src/compile/read-rule-parts.ts';
import * as trusted from '../src/compile/read-rule-parts-trusted.ts';
import { giftConfigSchema, ruleOptionsSchema, shopSettingsSchema } from '../src/index.ts';

// compileRules reads giftConfig, options and shopSettings with plain readers so the storefront
// bundle carries no zod; these laws hold the readers to the schemas the API validates with.
const asSchema = <T>(result: { success: true; data: T } | { success: false }) => (result.success ? result.data : undefined);

const variant = fc.oneof(
  fc.nat({ max: 99 }).map((n) => `gid://shopify/ProductVariant/${n}`),
  fc.constantFrom('gid://shopify/Product/1', '42', 'gid://a b/ProductVariant/1', 'gid://x/ProductVariant/'),
);
const loose = fc.oneof(fc.constant(undefined), fc.constant(null), fc.boolean(), fc.string({ maxLength: 3 }), fc.double(), fc.integer({ min: -2, max: 3 }));
const giftConfigArb = fc.oneof(
  fc.record(
    {
      type: fc.oneof(fc.constant('fixed'), loose),
      gifts: fc.oneof(fc.array(fc.oneof(fc.record({ variantId: fc.oneof(variant, loose), quantity: fc.oneof(fc.integer({ min: -1, max: 3 }), loose), extra: loose }, { requiredKeys: [] }), loose), { maxLength: 3 }), loose),
      fallbackOnOOS: loose,
      per: fc.oneof(
        fc.record(
          {
            every: fc.oneof(fc.integer({ min: -1, max: 5 }), fc.constantFrom(2 ** 60, 1.5), loose),
            of: fc.oneof(fc.constantFrom('items', 'subtotal', 'other'), loose),
            max: fc.oneof(fc.integer({ min: 0, max: 101 }), loose),
            currencyOverrides: fc.oneof(fc.dictionary(fc.constantFrom('EUR', 'gbp', 'EURO', '', '€€€'), fc.oneof(fc.integer({ min: -1, max: 3 }), loose), { maxKeys: 3 }), loose),
            extra: loose,
          },
          { requiredKeys: [] },
        ),
        loose,
      ),
    },
    { requiredKeys: [] },
  ),
  fc.anything(),
);
const optionsArb = fc.oneof(
  fc.record(
    {
      actionType: fc.oneof(fc.constantFrom('auto_add', 'customer_choice', 'other'), loose),
      discountMethod: fc.oneof(fc.constant('automatic'), loose),
      discountType: fc.oneof(fc.constantFrom('percentage', 'fixed_amount'), loose),
      discountValue: fc.oneof(fc.integer({ min: -5, max: 500 }), fc.constantFrom(Infinity, NaN, 100.5), loose),
      discountTitle: fc.oneof(fc.string(), fc.constantFrom('a\u0000', '\uD800x'), loose),
      priority: fc.oneof(fc.integer({ min: -1_000_001, max: 1_000_001 }), fc.constantFrom(0.5), loose),
      exclusive: fc.oneof(fc.boolean(), loose),
      lockQuantity: fc.oneof(fc.boolean(), loose),
      discountTitleTranslations: fc.oneof(
        fc.dictionary(
          fc.oneof(fc.constantFrom('fr', 'FR', 'pt-BR', 'pt', 'de', 'fr FR', '', 'x'), fc.string({ maxLength: 4 })),
          fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('', 'y'.repeat(255), 'y'.repeat(256), 'a\u0000'), loose),
          { maxKeys: 22 },
        ),
        loose,
      ),
      maxPerCustomer: fc.oneof(fc.integer({ min: -1, max: 3 }), fc.constantFrom(1_000_000, 1_000_001, 2.5, 2 ** 60), loose),
      budget: fc.oneof(
        fc.record(
          {
            maxGifts: fc.oneof(fc.integer({ min: -1, max: 3 }), fc.constantFrom(1_000_000_000, 1_000_000_001, 2.5), loose),
            window: fc.oneof(fc.constantFrom('day', 'week', 'month', 'total', 'year'), loose),
            unknown: loose,
          },
          { requiredKeys: [] },
        ),
        loose,
      ),
      unknown: loose,
    },
    { requiredKeys: [] },
  ),
  fc.anything(),
);
const sectionArb = (fields: string[]) =>
  fc.oneof(fc.dictionary(fc.constantFrom(...fields, 'other'), fc.oneof(loose, fc.constant(2 ** 60)), { maxKeys: 4 }), loose);
const settingsArb = fc.oneof(
  fc.record(
    {
      engine: sectionArb(['runOnExpressCheckout', 'runOnCartSubmission', 'useDiscountedPrices', 'evaluationDelay']),
      checkout: sectionArb(['blockZeroValueCart', 'blockGiftOnlyCarts', 'stripZeroPriceItems', 'minOrderTotalCents', 'minOrderTotalMessage']),
      data: sectionArb(['collectCartTokens']),
      other: loose,
    },
    { requiredKeys: [] },
  ),
  fc.anything(),
);

describe('plain readers of rule parts (zod-free compileRules)', () => {
  it('readGiftConfig answers what giftConfigSchema answers', () => {
    fc.assert(fc.property(giftConfigArb, (input) => {
      expect(readGiftConfig(input)).toEqual(asSchema(giftConfigSchema.safeParse(input)));
    }), { numRuns: 2000 });
  });

  it('readRuleOptions answers what ruleOptionsSchema answers', () => {
    fc.assert(fc.property(optionsArb, (input) => {
      expect(readRuleOptions(input)).toEqual(asSchema(ruleOptionsSchema.safeParse(input)));
    }), { numRuns: 2000 });
  });

  it('readShopSettings answers what shopSettingsSchema answers', () => {
    fc.assert(fc.property(settingsArb, (input) => {
      expect(readShopSettings(input)).toEqual(asSchema(shopSettingsSchema.safeParse(input)));
    }), { numRuns: 2000 });
  });

  it('accepts the common shapes (the law above is not vacuous)', () => {
    expect(readGiftConfig({ type: 'fixed', gifts: [{ variantId: 'gid://shopify/ProductVariant/1', quantity: 2 }] })).toEqual({
      type: 'fixed',
      gifts: [{ variantId: 'gid://shopify/ProductVariant/1', quantity: 2 }],
      fallbackOnOOS: false,
    });
    expect(readRuleOptions({ actionType: 'customer_choice' })?.actionType).toBe('customer_choice');
    expect(readRuleOptions({ discountValue: 101 })).toBeUndefined();
    expect(readShopSettings({ engine: { evaluationDelay: 300 }, x: 1 })).toEqual({ engine: { evaluationDelay: 300 } });
  });
});

// The storefront build's readers (read-rule-parts-trusted.ts) trust the payload the server
// validated: on every input the validating readers accept they give at least the same fields
// (they keep unknown keys, and leave `budget`, which the engine never reads, as it came).
const validGiftConfigArb = fc.record(
  {
    type: fc.constant('fixed'),
    gifts: fc.array(fc.record({ variantId: variant, quantity: fc.integer({ min: 1, max: 3 }) }), { minLength: 1, maxLength: 3 }),
    fallbackOnOOS: fc.boolean(),
    per: fc.record({ every: fc.integer({ min: 1, max: 5 }), of: fc.constantFrom('items', 'subtotal'), max: fc.integer({ min: 1, max: 5 }), extra: loose }, { requiredKeys: ['every', 'of', 'max'] }),
  },
  { requiredKeys: ['type', 'gifts'] },
);

describe('trusted readers of the storefront build', () => {
  const withoutBudget = (options: object | undefined) => {
    if (options === undefined) return undefined;
    const { budget: _budget, ...rest } = options as { budget?: unknown };
    return rest;
  };
  const laws: Array<[string, fc.Arbitrary<unknown>, (input: unknown) => unknown, (input: unknown) => unknown]> = [
    ['readGiftConfig', fc.oneof(giftConfigArb, validGiftConfigArb), readGiftConfig, trusted.readGiftConfig],
    ['readRuleOptions', optionsArb, (input) => withoutBudget(readRuleOptions(input)), (input) => withoutBudget(trusted.readRuleOptions(input))],
    ['readShopSettings', settingsArb, readShopSettings, trusted.readShopSettings],
  ];
  it.each(laws)('%s gives what the validating reader gives on the inputs it accepts', (_name, arb, validating, trustedReader) => {
    let accepted = 0;
    fc.assert(fc.property(arb, (input) => {
      const expected = validating(input);
      if (expected === undefined) return;
      accepted++;
      expect(trustedReader(input)).toMatchObject(expected as object);
    }), { numRuns: 3000 });
    expect(accepted).toBeGreaterThan(10);
  });
});
