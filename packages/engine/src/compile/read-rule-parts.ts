/**
 * Plain readers of the rule parts the planner needs defaults for (`giftConfig`, `options`,
 * `shopSettings`). They answer exactly what `giftConfigSchema`, `ruleOptionsSchema` and
 * `shopSettingsSchema` would (parsed value on success, `undefined` on failure; a property
 * test holds them to that), without importing zod: compiling and planning run in the
 * storefront bundle, where zod's classes would be most of the weight.
 */
import type { GiftConfig, GiftPer } from '../schema/gift-config.ts';
import { RULE_OPTION_DEFAULTS_VALUES } from '../schema/rule-option-defaults.ts';
import type { RuleOptions } from '../schema/rule-options.ts';
import type { ShopSettings } from '../schema/rules-payload.ts';
import {
  BUDGET_WINDOWS,
  LOCALE_PATTERN,
  MAX_BUDGET_GIFTS,
  MAX_DISCOUNT_TITLE_CHARS,
  MAX_GIFT_SETS,
  MAX_PER_CUSTOMER,
  MAX_PRIORITY,
  MAX_TITLE_TRANSLATIONS,
  VARIANT_GID_PATTERN,
  isStorableText,
} from '../schema/literals.ts';
import type { Budget } from '../schema/rule-options.ts';

type Plain = Record<string, unknown>;

const isPlain = (value: unknown): value is Plain =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isInt = (value: unknown): value is number => Number.isSafeInteger(value);
// Zod's `.default()` stands in for `undefined` only: a `null` field stays, and fails.
const orDefault = (value: unknown, fallback: unknown): unknown => (value === undefined ? fallback : value);

/**
 * `giftConfigSchema.safeParse(input)`'s data, or undefined where it fails.
 *
 * @example readGiftConfig({ type: 'fixed', gifts: [{ variantId: 'gid://shopify/ProductVariant/1', quantity: 1 }] })
 */
export function readGiftConfig(input: unknown): GiftConfig | undefined {
  if (!isPlain(input) || input.type !== 'fixed' || !Array.isArray(input.gifts) || input.gifts.length === 0) return undefined;
  const fallbackOnOOS = orDefault(input.fallbackOnOOS, false);
  if (typeof fallbackOnOOS !== 'boolean') return undefined;
  const gifts: GiftConfig['gifts'] = [];
  for (const gift of input.gifts as unknown[]) {
    if (!isPlain(gift)) return undefined;
    const { variantId, quantity } = gift;
    if (typeof variantId !== 'string' || !VARIANT_GID_PATTERN.test(variantId)) return undefined;
    if (!isInt(quantity) || quantity < 1) return undefined;
    gifts.push({ variantId, quantity });
  }
  if (input.per === undefined) return { type: 'fixed', gifts, fallbackOnOOS };
  const per = readPer(input.per);
  return per === undefined ? undefined : { type: 'fixed', gifts, fallbackOnOOS, per };
}

const CURRENCY_CODE = /^[A-Za-z]{3}$/;
const isCount = (value: unknown, max: number): value is number => isInt(value) && value >= 1 && value <= max;

/**
 * `perSchema.safeParse(input)`'s data, or undefined where it fails (unknown keys dropped).
 *
 * @example readPer({ every: 3, of: 'items', max: 5 }) // { every: 3, of: 'items', max: 5 }
 */
export function readPer(input: unknown): GiftPer | undefined {
  if (!isPlain(input)) return undefined;
  const { every, of, max, currencyOverrides } = input;
  if (!isCount(every, Number.MAX_SAFE_INTEGER) || (of !== 'items' && of !== 'subtotal') || !isCount(max, MAX_GIFT_SETS)) return undefined;
  if (currencyOverrides === undefined) return { every, of, max };
  if (!isPlain(currencyOverrides)) return undefined;
  const overrides: Record<string, number> = {};
  for (const [code, amount] of Object.entries(currencyOverrides)) {
    if (!CURRENCY_CODE.test(code) || !isCount(amount, Number.MAX_SAFE_INTEGER)) return undefined;
    overrides[code] = amount;
  }
  return { every, of, max, currencyOverrides: overrides };
}

/** `budgetSchema.safeParse(input)`'s data, or undefined where it fails (the engine never reads it; the server does). */
function readBudget(input: unknown): Budget | undefined {
  if (!isPlain(input)) return undefined;
  const window = orDefault(input.window, 'total');
  if (!isCount(input.maxGifts, MAX_BUDGET_GIFTS) || !(BUDGET_WINDOWS as readonly unknown[]).includes(window)) return undefined;
  return { maxGifts: input.maxGifts, window: window as Budget['window'] };
}

/** `discountTitleTranslationsSchema.safeParse(input)`'s data, or undefined where it fails. */
function readTitleTranslations(input: unknown): Record<string, string> | undefined {
  if (!isPlain(input)) return undefined;
  const locales = Object.keys(input);
  if (locales.length > MAX_TITLE_TRANSLATIONS || new Set(locales.map((l) => l.toLowerCase())).size !== locales.length) return undefined;
  const translations: Record<string, string> = {};
  for (const locale of locales) {
    const title = input[locale];
    if (!LOCALE_PATTERN.test(locale) || typeof title !== 'string' || title.length < 1 || title.length > MAX_DISCOUNT_TITLE_CHARS || !isStorableText(title)) return undefined;
    translations[locale] = title;
  }
  return translations;
}

const ACTION_TYPES: readonly unknown[] = ['auto_add', 'customer_choice'];
const DISCOUNT_TYPES: readonly unknown[] = ['percentage', 'fixed_amount'];

/**
 * `ruleOptionsSchema.safeParse(input)`'s data, or undefined where it fails.
 *
 * @example readRuleOptions(undefined) // the defaults
 */
export function readRuleOptions(input: unknown): RuleOptions | undefined {
  if (input === undefined) return { ...RULE_OPTION_DEFAULTS_VALUES };
  if (!isPlain(input)) return undefined;
  const actionType = orDefault(input.actionType, RULE_OPTION_DEFAULTS_VALUES.actionType);
  const discountMethod = orDefault(input.discountMethod, RULE_OPTION_DEFAULTS_VALUES.discountMethod);
  const discountType = orDefault(input.discountType, RULE_OPTION_DEFAULTS_VALUES.discountType);
  const discountValue = orDefault(input.discountValue, RULE_OPTION_DEFAULTS_VALUES.discountValue);
  const discountTitle = orDefault(input.discountTitle, RULE_OPTION_DEFAULTS_VALUES.discountTitle);
  if (!ACTION_TYPES.includes(actionType) || discountMethod !== 'automatic' || !DISCOUNT_TYPES.includes(discountType)) return undefined;
  if (typeof discountValue !== 'number' || !Number.isFinite(discountValue) || discountValue < 0) return undefined;
  if (typeof discountTitle !== 'string' || !isStorableText(discountTitle)) return undefined;
  if (discountType === 'percentage' && discountValue > 100) return undefined;
  const { priority, exclusive, maxPerCustomer, lockQuantity } = input;
  const discountTitleTranslations = input.discountTitleTranslations === undefined ? undefined : readTitleTranslations(input.discountTitleTranslations);
  if (input.discountTitleTranslations !== undefined && discountTitleTranslations === undefined) return undefined;
  const budget = input.budget === undefined ? undefined : readBudget(input.budget);
  if (input.budget !== undefined && budget === undefined) return undefined;
  if (priority !== undefined && !(isInt(priority) && Math.abs(priority) <= MAX_PRIORITY)) return undefined;
  if (exclusive !== undefined && typeof exclusive !== 'boolean') return undefined;
  if (lockQuantity !== undefined && typeof lockQuantity !== 'boolean') return undefined;
  if (maxPerCustomer !== undefined && !isCount(maxPerCustomer, MAX_PER_CUSTOMER)) return undefined;
  return {
    actionType: actionType as RuleOptions['actionType'],
    discountMethod,
    discountType: discountType as RuleOptions['discountType'],
    discountValue,
    discountTitle,
    ...(discountTitleTranslations === undefined ? {} : { discountTitleTranslations }),
    ...(priority === undefined ? {} : { priority }),
    ...(exclusive === undefined ? {} : { exclusive }),
    ...(budget === undefined ? {} : { budget }),
    ...(maxPerCustomer === undefined ? {} : { maxPerCustomer }),
    ...(lockQuantity === undefined ? {} : { lockQuantity }),
  };
}

type FieldKind = 'boolean' | 'int' | 'string' | 'stacking';
const SHOP_SETTING_FIELDS: Record<string, Record<string, FieldKind>> = {
  engine: { runOnExpressCheckout: 'boolean', runOnCartSubmission: 'boolean', useDiscountedPrices: 'boolean', evaluationDelay: 'int', stacking: 'stacking' },
  checkout: {
    blockZeroValueCart: 'boolean',
    blockGiftOnlyCarts: 'boolean',
    stripZeroPriceItems: 'boolean',
    minOrderTotalCents: 'int',
    minOrderTotalMessage: 'string',
  },
  data: { collectCartTokens: 'boolean' },
};

const fits = (value: unknown, kind: FieldKind) =>
  kind === 'int' ? isInt(value) : kind === 'stacking' ? value === 'all' || value === 'highest_tier' : typeof value === kind;

/**
 * `shopSettingsSchema.safeParse(input)`'s data, or undefined where it fails: every section
 * and field optional, unknown keys dropped.
 *
 * @example readShopSettings({ engine: { evaluationDelay: 300 } }) // { engine: { evaluationDelay: 300 } }
 */
export function readShopSettings(input: unknown): ShopSettings | undefined {
  if (!isPlain(input)) return undefined;
  const settings: Record<string, Plain> = {};
  for (const [section, fields] of Object.entries(SHOP_SETTING_FIELDS)) {
    const value = input[section];
    if (value === undefined) continue;
    if (!isPlain(value)) return undefined;
    const read: Plain = {};
    for (const [field, kind] of Object.entries(fields)) {
      const fieldValue = value[field];
      if (fieldValue === undefined) continue;
      if (!fits(fieldValue, kind)) return undefined;
      read[field] = fieldValue;
    }
    settings[section] = read;
  }
  return settings as ShopSettings;
}
