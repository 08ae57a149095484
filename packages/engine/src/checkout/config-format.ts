/**
 * The checkout function's configuration format (compact-config.ts builds it, config-metafields.ts
 * spreads it over the discount's metafields, the function reads it). Types only.
 */
import type { CompactNode } from './compact-tree.ts';

/**
 * One rule: `[ruleKey, campaignIndex, tree, gifts, discount?, titleIndex?, experimentIndex?, per?]`.
 * A gift is its variant's numeric id (quantity 1) or `[id, quantity]`; `discount` a number
 * is a percentage, `[minor]` a fixed amount in the base currency's minor units per item.
 * `per` is a repeatable gift as `[every, of (0 items, 1 subtotal), max, currencyOverrides?]`;
 * `stack` the rule's stacking options as `[priority, exclusive (0|1)]`; `maxPerCustomer` the
 * per-customer limit (the counts come from the buyer's `$app:gifts` / `redemptions` metafield).
 * Trailing defaults are dropped: discount 100 (%), title 0, no experiment, no per, no stack,
 * no limit (`null` stands for an absent one when a later field follows).
 */
export type CompactGift = number | string | [number | string, number];
export type CompactPer = [number, 0 | 1, number, Record<string, number>?];
export type CompactStack = [number, 0 | 1];
export type CompactRule = [
  string,
  number,
  CompactNode | 0,
  CompactGift[],
  (number | [number])?,
  number?,
  (number | null)?,
  (CompactPer | null)?,
  (CompactStack | null)?,
  number?,
];

/** What every version of the configuration has besides its rules. */
type ConfigHeader = {
  /** Base currency. */
  c: string;
  /** Campaign keys, referenced by index. */
  p: string[];
  /** Distinct discount titles, referenced by index. */
  m: string[];
  /**
   * The titles' translations, by the index of `m` (0 = none; trailing none dropped; absent when
   * no rule has any): locale in lower case (`fr`, `pt-br`) → title. An older function ignores it.
   */
  l?: Array<Record<string, string> | 0>;
  /**
   * Checkout settings a discount can express: `s` stripZeroPriceItems, `n` minOrderTotalCents;
   * and `t` 1 for `engine.stacking: highest_tier`.
   */
  k?: { s?: 1; n?: number; t?: 1 };
};

/**
 * The configuration as the server writes it (format 2): `r` maps each rule's key to the text
 * of its other fields (rule-text.ts), parsed by the function only when a cart needs the rule;
 * the keys are in the rules' order (never an array index, which an object lists first). `x` is
 * 1 when some rule is exclusive (stacking can then suppress, so the function reads every rule:
 * it cannot see that in an unparsed text). `r2` is never written: `joinCheckoutConfig` puts
 * `config2`'s rules there (merging the two objects would copy every rule).
 */
export type CheckoutFunctionConfig = ConfigHeader & {
  /** Format version. */
  v: 2;
  r: Record<string, string>;
  r2?: Record<string, string>;
  x?: 1;
};

/**
 * Format 1, written before rules were texts: each rule a nested array. The function still reads
 * it (a deployed configuration stays until the next sync rewrites it).
 */
export type CheckoutFunctionConfigV1 = ConfigHeader & { v: 1; r: CompactRule[] };

/** A configuration the function reads: either format. */
export type ReadableCheckoutConfig = CheckoutFunctionConfig | CheckoutFunctionConfigV1;

/** The input query's variables (a second metafield): customer tags and collections to ask about. */
export type CheckoutFunctionVariables = { tags: string[]; collectionIds: string[] };
