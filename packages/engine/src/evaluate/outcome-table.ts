/**
 * The leaves' outcomes (outcomes.ts re-exports this module as `OUTCOME`), one export each: a
 * bundle reads `OUTCOME.subtotalBelow` as a plain variable, so the names cost nothing in the
 * storefront script.
 */
import type { LeafOutcome } from './leaf-outcome.ts';

const outcome = (matched: boolean, reason: string): LeafOutcome => Object.freeze({ matched, reason });
const pair = (reason: string) => ({ yes: outcome(true, reason), no: outcome(false, reason) });

// Malformed input met at evaluation time: always fail closed.
export const unknownType = outcome(false, 'unknown_condition_type');
export const invalidThreshold = outcome(false, 'invalid_threshold');
export const foreignCurrency = outcome(false, 'foreign_currency_no_override');
export const invalidId = outcome(false, 'invalid_id');
export const invalidValue = outcome(false, 'invalid_value');
export const emptySellingPlanIds = outcome(false, 'empty_selling_plan_ids');
export const missingProductOrVariant = outcome(false, 'missing_product_or_variant');
export const emptyPropertyKey = outcome(false, 'empty_property_key');
export const emptyTagList = outcome(false, 'empty_tag_list');
export const emptyMarketList = outcome(false, 'empty_market_list');
export const emptyCountryList = outcome(false, 'empty_country_list');
export const noMarket = outcome(false, 'no_market');
export const notLoggedInForTags = outcome(false, 'customer_not_logged_in');

export const subtotalAtOrAbove = outcome(true, 'subtotal_at_or_above_threshold');
export const subtotalBelow = outcome(false, 'subtotal_below_threshold');
export const subtotalAtOrBelow = outcome(true, 'subtotal_at_or_below_threshold');
export const subtotalAbove = outcome(false, 'subtotal_above_threshold');
export const totalAtOrAbove = outcome(true, 'total_at_or_above_threshold');
export const totalBelow = outcome(false, 'total_below_threshold');
export const itemCountReached = outcome(true, 'item_count_reached');
export const itemCountBelow = outcome(false, 'item_count_below_threshold');

export const productInCart = outcome(true, 'product_in_cart');
export const productNotInCart = outcome(false, 'product_not_in_cart');
export const variantInCart = outcome(true, 'variant_in_cart');
export const variantNotInCart = outcome(false, 'variant_not_in_cart');
export const collectionInCart = outcome(true, 'collection_in_cart');
export const collectionNotInCart = outcome(false, 'collection_not_in_cart');
export const quantityReached = outcome(true, 'quantity_reached');
export const quantityBelow = outcome(false, 'quantity_below_minimum');
export const propertyFound = outcome(true, 'property_found');
export const propertyNotFound = outcome(false, 'property_not_found');

export const customerTagMatched = outcome(true, 'customer_tag_matched');
export const customerTagNotMatched = outcome(false, 'customer_tag_not_matched');
export const marketMatched = outcome(true, 'market_matched');
export const marketNotMatched = outcome(false, 'market_not_matched');
export const countryMatched = outcome(true, 'country_matched');
export const countryNotMatched = outcome(false, 'country_not_matched');
export const codeMatched = outcome(true, 'discount_code_matched');
export const codeNotMatched = outcome(false, 'discount_code_not_matched');

// Same code, matched or not depending on what the rule asks for.
export const subscriptionInCart = pair('subscription_in_cart');
export const noSubscriptionInCart = pair('no_subscription_in_cart');
export const loggedIn = pair('customer_logged_in');
export const notLoggedIn = pair('customer_not_logged_in');
export const codePresent = pair('discount_code_present');
export const noCode = pair('no_discount_code');
