/**
 * What a live rule offers once the catalog's stock is known (issue 11 part 5; the choices are
 * in docs/evaluation.md "Gift stock"). The server decides, in the payload it serves, so every
 * consumer — GET /rules, the storefront proxy, POST /evaluate — gives the same gift without
 * knowing stock:
 * - a rule's gift list keeps its order and loses its sold-out gifts;
 * - `fallbackOnOOS: true`: the engine gives the list's first gift, now the first in stock,
 *   i.e. "the next gift of the list in stock";
 * - `fallbackOnOOS: false`: an `auto_add` rule whose first gift is sold out gives nothing, so
 *   it is left out; a `customer_choice` rule offers the gifts in stock, as the engine does;
 * - a rule none of whose gifts is in stock is left out (it can give nothing). Its campaign
 *   stays enabled and comes back with the stock.
 * Pure.
 */
import { numericIdOf } from '@gcrs/engine';
import type { RuleRecord } from '../campaigns/store.ts';

const keyOf = (variantId: string): string => numericIdOf(variantId) ?? variantId;

/**
 * The rule as offered with `soldOut` (numeric variant ids) sold out: itself when every gift is
 * in stock, a copy with the gifts in stock, or undefined when it can give nothing.
 *
 * @example
 *   offeredRule(rule, new Set(['7'])); // rule without the gift gid://shopify/ProductVariant/7
 */
export function offeredRule(rule: RuleRecord, soldOut: ReadonlySet<string>): RuleRecord | undefined {
  const { gifts, fallbackOnOOS } = rule.giftConfig;
  if (soldOut.size === 0 || !gifts.some((gift) => soldOut.has(keyOf(gift.variantId)))) return rule;
  const inStock = gifts.filter((gift) => !soldOut.has(keyOf(gift.variantId)));
  if (inStock.length === 0) return undefined;
  const first = gifts[0];
  const firstSoldOut = first !== undefined && soldOut.has(keyOf(first.variantId));
  if (firstSoldOut && !fallbackOnOOS && rule.options.actionType !== 'customer_choice') return undefined;
  return { ...rule, giftConfig: { ...rule.giftConfig, gifts: inStock } };
}
