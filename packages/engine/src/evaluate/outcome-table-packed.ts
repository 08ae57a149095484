/**
 * outcome-table.ts for the storefront bundle (packages/storefront/scripts/build-script.ts): the
 * same exports with the same frozen outcomes, each list written as one space-separated string,
 * so the bundle carries the reason codes without a call and a name per outcome (−47 B gzip on
 * the first load). Held to outcome-table.ts by test/storefront-stand-ins.test.ts.
 */
import type { LeafOutcome } from './outcomes.ts';

type Pair = { yes: LeafOutcome; no: LeafOutcome };

const outcome = (matched: boolean, reason: string): LeafOutcome => Object.freeze({ matched, reason });
const pair = (reason: string): Pair => ({ yes: outcome(true, reason), no: outcome(false, reason) });
// Typed as an iterable, not an array: each name below is one of the codes, in order (the test holds the counts).
const outcomes = (matched: boolean, reasons: string): Iterable<LeafOutcome> => reasons.split(' ').map((reason) => outcome(matched, reason));
const pairs = (reasons: string): Iterable<Pair> => reasons.split(' ').map(pair);

export const [
  unknownType, invalidThreshold, foreignCurrency, invalidId, invalidValue,
  emptySellingPlanIds, missingProductOrVariant, emptyPropertyKey, emptyTagList, emptyMarketList,
  emptyCountryList, noMarket, notLoggedInForTags, subtotalBelow, subtotalAbove,
  totalBelow, itemCountBelow, productNotInCart, variantNotInCart, collectionNotInCart,
  quantityBelow, propertyNotFound, customerTagNotMatched, marketNotMatched, countryNotMatched,
  codeNotMatched,
] = outcomes(
  false,
  'unknown_condition_type invalid_threshold foreign_currency_no_override invalid_id ' +
    'invalid_value empty_selling_plan_ids missing_product_or_variant empty_property_key ' +
    'empty_tag_list empty_market_list empty_country_list no_market customer_not_logged_in ' +
    'subtotal_below_threshold subtotal_above_threshold total_below_threshold ' +
    'item_count_below_threshold product_not_in_cart variant_not_in_cart ' +
    'collection_not_in_cart quantity_below_minimum property_not_found ' +
    'customer_tag_not_matched market_not_matched country_not_matched ' +
    'discount_code_not_matched',
);

export const [
  subtotalAtOrAbove, subtotalAtOrBelow, totalAtOrAbove, itemCountReached, productInCart,
  variantInCart, collectionInCart, quantityReached, propertyFound, customerTagMatched,
  marketMatched, countryMatched, codeMatched,
] = outcomes(
  true,
  'subtotal_at_or_above_threshold subtotal_at_or_below_threshold ' +
    'total_at_or_above_threshold item_count_reached product_in_cart variant_in_cart ' +
    'collection_in_cart quantity_reached property_found customer_tag_matched market_matched ' +
    'country_matched discount_code_matched',
);

export const [subscriptionInCart, noSubscriptionInCart, loggedIn, notLoggedIn, codePresent, noCode] = pairs(
  'subscription_in_cart no_subscription_in_cart customer_logged_in customer_not_logged_in ' +
    'discount_code_present no_discount_code',
);
