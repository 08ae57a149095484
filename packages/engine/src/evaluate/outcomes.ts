/**
 * A leaf's answer: whether it matched and one short reason code (SPEC: reasons are short
 * string codes outside any stability contract). Leaves return these shared frozen
 * constants, so evaluating a leaf allocates nothing.
 */
export type LeafOutcome = Readonly<{ matched: boolean; reason: string }>;

const outcome = (matched: boolean, reason: string): LeafOutcome => Object.freeze({ matched, reason });
const pair = (reason: string) => ({ yes: outcome(true, reason), no: outcome(false, reason) });

export const OUTCOME = {
  // Malformed input met at evaluation time: always fail closed.
  unknownType: outcome(false, 'unknown_condition_type'),
  invalidThreshold: outcome(false, 'invalid_threshold'),
  foreignCurrency: outcome(false, 'foreign_currency_no_override'),
  invalidId: outcome(false, 'invalid_id'),
  invalidValue: outcome(false, 'invalid_value'),
  emptySellingPlanIds: outcome(false, 'empty_selling_plan_ids'),
  missingProductOrVariant: outcome(false, 'missing_product_or_variant'),
  emptyPropertyKey: outcome(false, 'empty_property_key'),
  emptyTagList: outcome(false, 'empty_tag_list'),
  emptyMarketList: outcome(false, 'empty_market_list'),
  emptyCountryList: outcome(false, 'empty_country_list'),
  noMarket: outcome(false, 'no_market'),
  notLoggedInForTags: outcome(false, 'customer_not_logged_in'),

  subtotalAtOrAbove: outcome(true, 'subtotal_at_or_above_threshold'),
  subtotalBelow: outcome(false, 'subtotal_below_threshold'),
  subtotalAtOrBelow: outcome(true, 'subtotal_at_or_below_threshold'),
  subtotalAbove: outcome(false, 'subtotal_above_threshold'),
  totalAtOrAbove: outcome(true, 'total_at_or_above_threshold'),
  totalBelow: outcome(false, 'total_below_threshold'),
  itemCountReached: outcome(true, 'item_count_reached'),
  itemCountBelow: outcome(false, 'item_count_below_threshold'),

  productInCart: outcome(true, 'product_in_cart'),
  productNotInCart: outcome(false, 'product_not_in_cart'),
  variantInCart: outcome(true, 'variant_in_cart'),
  variantNotInCart: outcome(false, 'variant_not_in_cart'),
  collectionInCart: outcome(true, 'collection_in_cart'),
  collectionNotInCart: outcome(false, 'collection_not_in_cart'),
  quantityReached: outcome(true, 'quantity_reached'),
  quantityBelow: outcome(false, 'quantity_below_minimum'),
  propertyFound: outcome(true, 'property_found'),
  propertyNotFound: outcome(false, 'property_not_found'),

  customerTagMatched: outcome(true, 'customer_tag_matched'),
  customerTagNotMatched: outcome(false, 'customer_tag_not_matched'),
  marketMatched: outcome(true, 'market_matched'),
  marketNotMatched: outcome(false, 'market_not_matched'),
  countryMatched: outcome(true, 'country_matched'),
  countryNotMatched: outcome(false, 'country_not_matched'),
  codeMatched: outcome(true, 'discount_code_matched'),
  codeNotMatched: outcome(false, 'discount_code_not_matched'),

  // Same code, matched or not depending on what the rule asks for.
  subscriptionInCart: pair('subscription_in_cart'),
  noSubscriptionInCart: pair('no_subscription_in_cart'),
  loggedIn: pair('customer_logged_in'),
  notLoggedIn: pair('customer_not_logged_in'),
  codePresent: pair('discount_code_present'),
  noCode: pair('no_discount_code'),
} as const;

/** Reason codes of the combinators, used in traces and for empty AND/OR. */
export const COMBINATOR_REASON = {
  emptyChildren: 'empty_children',
  allChildrenMatched: 'all_children_matched',
  childNotMatched: 'child_not_matched',
  childMatched: 'child_matched',
  noChildMatched: 'no_child_matched',
  inverted: 'child_inverted',
} as const;
