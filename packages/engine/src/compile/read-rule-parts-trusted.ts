/**
 * The storefront build's stand-in for read-rule-parts.ts (packages/storefront/scripts/build-script.ts
 * swaps it in for compile-rules.ts): the same readers for a payload that the server has already
 * validated with the Zod schemas (`GET /rules` serves only stored, validated rules), so they only
 * fill the schemas' defaults instead of checking every field again. On any input the validating
 * readers accept, they give at least what those give (test/read-rule-parts-trusted.test.ts); the
 * server, the admin simulator and the checkout function keep the validating readers.
 */
import type { GiftConfig } from '../schema/gift-config.ts';
import { RULE_OPTION_DEFAULTS_VALUES } from '../schema/rule-option-defaults.ts';
import type { RuleOptions } from '../schema/rule-options.ts';
import type { ShopSettings } from '../schema/rules-payload.ts';

type Plain = Record<string, unknown>;

/** `defaults` with every field of `input` that is not `undefined` (zod's `.default()`). */
function withDefaults<T extends Plain>(defaults: T, input: unknown): T {
  const read: Plain = { ...defaults };
  for (const [key, value] of Object.entries(input as Plain)) if (value !== undefined) read[key] = value;
  return read as T;
}

/** @example readGiftConfig({ type: 'fixed', gifts: [] }) // { type: 'fixed', gifts: [], fallbackOnOOS: false } */
export function readGiftConfig(input: unknown): GiftConfig | undefined {
  return input == null ? undefined : withDefaults({ fallbackOnOOS: false } as Plain, input) as GiftConfig;
}

/** @example readRuleOptions(undefined) // the defaults */
export function readRuleOptions(input: unknown): RuleOptions | undefined {
  return withDefaults(RULE_OPTION_DEFAULTS_VALUES as Plain, input ?? {}) as RuleOptions;
}

/** @example readShopSettings({ engine: { evaluationDelay: 300 } }) // the same object */
export function readShopSettings(input: unknown): ShopSettings | undefined {
  return input as ShopSettings;
}
