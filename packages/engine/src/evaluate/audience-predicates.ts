import type { LeafOf } from '../schema/leaf-node.ts';
import * as OUTCOME from './outcome-table.ts';
import type { LeafPredicate } from './leaf-predicate.ts';
import { always } from './leaf-predicate.ts';

// Trimmed, case-folded, non-empty entries of a list (or a comma-separated string, which
// SPEC accepts for customer.tag_in).
function foldedList(value: unknown, fold: (text: string) => string): Set<string> {
  const items = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : [];
  const set = new Set<string>();
  for (const item of items) {
    if (typeof item !== 'string') continue;
    const folded = fold(item.trim());
    if (folded !== '') set.add(folded);
  }
  return set;
}

const lower = (text: string) => text.toLowerCase();
const upper = (text: string) => text.toUpperCase();

/**
 * `customer.tag_in`: the logged-in customer has one of the tags (case-insensitive).
 *
 * @example compileTagIn({ type: 'customer.tag_in', value: 'vip, wholesale' })(prepared)
 */
export function compileTagIn(leaf: LeafOf<'customer.tag_in'>): LeafPredicate {
  const tags = foldedList(leaf.value, lower);
  if (tags.size === 0) return always(OUTCOME.emptyTagList);
  return (ctx) => {
    if (!ctx.loggedIn) return OUTCOME.notLoggedInForTags;
    for (const tag of tags) if (ctx.customerTags.has(tag)) return OUTCOME.customerTagMatched;
    return OUTCOME.customerTagNotMatched;
  };
}

/**
 * `customer.is_logged_in`: true/false or 'true'/'false'; anything else fails closed.
 *
 * @example compileIsLoggedIn({ type: 'customer.is_logged_in', value: 'true' })(prepared)
 */
export function compileIsLoggedIn(leaf: LeafOf<'customer.is_logged_in'>): LeafPredicate {
  const value: unknown = leaf.value;
  const wanted = value === true || value === 'true' ? true : value === false || value === 'false' ? false : undefined;
  if (wanted === undefined) return always(OUTCOME.invalidValue);
  return (ctx) => {
    if (ctx.loggedIn) return wanted ? OUTCOME.loggedIn.yes : OUTCOME.loggedIn.no;
    return wanted ? OUTCOME.notLoggedIn.no : OUTCOME.notLoggedIn.yes;
  };
}

/**
 * `market.handle_in`: the active market handle is listed (case-insensitive).
 *
 * @example compileMarketHandleIn({ type: 'market.handle_in', value: ['eu'] })(prepared)
 */
export function compileMarketHandleIn(leaf: LeafOf<'market.handle_in'>): LeafPredicate {
  const handles = foldedList(leaf.value, lower);
  if (handles.size === 0) return always(OUTCOME.emptyMarketList);
  return (ctx) => {
    if (ctx.marketHandle === undefined || ctx.marketHandle === '') return OUTCOME.noMarket;
    return handles.has(ctx.marketHandle) ? OUTCOME.marketMatched : OUTCOME.marketNotMatched;
  };
}

/**
 * `country.in`: the market country is listed (case-insensitive).
 *
 * @example compileCountryIn({ type: 'country.in', value: ['DE', 'AT'] })(prepared)
 */
export function compileCountryIn(leaf: LeafOf<'country.in'>): LeafPredicate {
  const countries = foldedList(leaf.value, upper);
  if (countries.size === 0) return always(OUTCOME.emptyCountryList);
  return (ctx) => {
    if (ctx.country === undefined || ctx.country === '') return OUTCOME.noMarket;
    return countries.has(ctx.country) ? OUTCOME.countryMatched : OUTCOME.countryNotMatched;
  };
}

/**
 * `discount.code_present`: at least one discount code is applied.
 *
 * @example compileCodePresent()(prepared).matched
 */
export function compileCodePresent(): LeafPredicate {
  return (ctx) => (ctx.discountCodes.size > 0 ? OUTCOME.codePresent.yes : OUTCOME.noCode.no);
}

/**
 * `discount.code_not_present`: no discount code is applied.
 *
 * @example compileCodeNotPresent()(prepared).matched
 */
export function compileCodeNotPresent(): LeafPredicate {
  return (ctx) => (ctx.discountCodes.size > 0 ? OUTCOME.codePresent.no : OUTCOME.noCode.yes);
}

/**
 * `discount.code_equals`: the code is applied (uppercased, trimmed on both sides).
 *
 * @example compileCodeEquals({ type: 'discount.code_equals', value: 'save10' })(prepared)
 */
export function compileCodeEquals(leaf: LeafOf<'discount.code_equals'>): LeafPredicate {
  const code = typeof leaf.value === 'string' ? leaf.value.trim().toUpperCase() : '';
  if (code === '') return always(OUTCOME.invalidValue);
  return (ctx) => (ctx.discountCodes.has(code) ? OUTCOME.codeMatched : OUTCOME.codeNotMatched);
}
