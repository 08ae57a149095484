/**
 * Words a merchant reads (issue 23, item 5): the one table from the engine's reason codes to
 * sentences, and money in the shop's currency — typed and shown in major units ("50" is $50.00),
 * sent to the API in minor units with the currency's ISO 4217 exponent (the engine's
 * `minorUnitExponent`, the service's one table). No DOM here: test/unit/words.test.ts reads it.
 */
import { minorUnitExponent } from '@gcrs/engine';

/**
 * Every reason code the engine can answer (leaves, combinators, skipped rules, limits per
 * customer, stacking), as a sentence. A code missing here shows as itself: the test fails first.
 */
export const REASON_SENTENCES: Readonly<Record<string, string>> = {
  // Malformed input met at evaluation time (the rule fails closed).
  unknown_condition_type: 'This condition is of a kind the service does not know, so it never passes.',
  invalid_threshold: 'The amount of this condition is not valid, so it never passes.',
  foreign_currency_no_override: 'The cart is in another currency and the condition has no amount for it.',
  invalid_id: 'The product or variant this condition names is not a valid id.',
  invalid_value: 'A value of this condition is not valid, so it never passes.',
  empty_selling_plan_ids: 'The condition names no selling plan, so it never passes.',
  missing_product_or_variant: 'The condition names neither a product nor a variant.',
  empty_property_key: 'The condition names no line property.',
  empty_tag_list: 'The condition names no customer tag.',
  empty_market_list: 'The condition names no market.',
  empty_country_list: 'The condition names no country.',
  no_market: 'The cart has no market.',
  // Amounts and counts.
  subtotal_at_or_above_threshold: 'The subtotal reaches the amount.',
  subtotal_below_threshold: 'The subtotal is below the amount.',
  subtotal_at_or_below_threshold: 'The subtotal is at most the amount.',
  subtotal_above_threshold: 'The subtotal is above the amount.',
  total_at_or_above_threshold: 'The cart total reaches the amount.',
  total_below_threshold: 'The cart total is below the amount.',
  item_count_reached: 'The cart has enough items.',
  item_count_below_threshold: 'The cart has too few items.',
  // Lines.
  product_in_cart: 'The product is in the cart.',
  product_not_in_cart: 'The product is not in the cart.',
  variant_in_cart: 'The variant is in the cart.',
  variant_not_in_cart: 'The variant is not in the cart.',
  collection_in_cart: 'A product of the collection is in the cart.',
  collection_not_in_cart: 'No product of the collection is in the cart.',
  quantity_reached: 'The cart has enough of the product.',
  quantity_below_minimum: 'The cart has too few of the product.',
  property_found: 'A line has the property.',
  property_not_found: 'No line has the property.',
  subscription_in_cart: 'A line is bought as a subscription.',
  no_subscription_in_cart: 'No line is bought as a subscription.',
  // Audience.
  customer_tag_matched: 'The customer has one of the tags.',
  customer_tag_not_matched: 'The customer has none of the tags.',
  customer_logged_in: 'The customer is logged in.',
  customer_not_logged_in: 'The customer is not logged in.',
  market_matched: 'The cart is in one of the markets.',
  market_not_matched: 'The cart is in none of the markets.',
  country_matched: 'The cart ships to one of the countries.',
  country_not_matched: 'The cart ships to none of the countries.',
  discount_code_matched: 'The cart has one of the discount codes.',
  discount_code_not_matched: 'The cart has none of the discount codes.',
  discount_code_present: 'The cart has a discount code.',
  no_discount_code: 'The cart has no discount code.',
  // Groups.
  empty_children: 'The group has no condition, so it never passes.',
  all_children_matched: 'Every condition of the group passes.',
  child_not_matched: 'A condition of the group fails.',
  child_matched: 'A condition of the group passes.',
  no_child_matched: 'No condition of the group passes.',
  child_inverted: 'The opposite of the condition inside.',
  // Rules that were not evaluated.
  rule_disabled: 'The rule is turned off.',
  invalid_rule: 'The rule’s options are not valid, so it gives nothing.',
  outside_schedule: 'The campaign is outside its schedule now.',
  invalid_schedule: 'The campaign’s schedule is not valid, so it gives nothing.',
  experiment_variant_not_assigned: 'An experiment assigned this shopper to another rule of the campaign.',
  // Limits per customer.
  max_per_customer_below: 'The customer has not reached the limit yet.',
  max_per_customer_reached: 'The customer has already had this gift as many times as the rule allows.',
  max_per_customer_unknown_customer: 'The rule has a limit per customer, and this customer is not known (not logged in).',
  // Stacking.
  suppressed_by_higher_tier: 'A higher tier gives its gift instead.',
  suppressed_by_exclusive: 'An exclusive rule gives its gift instead.',
};

/** The sentence of a reason code (the code itself when the table has none). */
export const reasonSentence = (code: string): string => REASON_SENTENCES[code] ?? code;

/** A number's major units in minor units of `currency`, or undefined when the text is not an amount. */
export function toMinorUnits(text: string, currency: string): number | undefined {
  const exponent = minorUnitExponent(currency);
  const cleaned = text.trim().replace(/[\s,]/g, '').replace(/^[^\d.-]+/, '');
  const pattern = exponent === 0 ? /^\d+$/ : new RegExp(`^\\d*(\\.\\d{0,${exponent}})?$`);
  if (cleaned === '' || cleaned === '.' || !pattern.test(cleaned)) return undefined;
  const [whole = '0', fraction = ''] = cleaned.split('.');
  return Number(whole || '0') * 10 ** exponent + Number(fraction.padEnd(exponent, '0') || '0');
}

/** Minor units as the plain major-unit number a field holds: 5000 USD → "50.00", 500 JPY → "500". */
export function toMajorText(minor: number, currency: string): string {
  const exponent = minorUnitExponent(currency);
  return (minor / 10 ** exponent).toFixed(exponent);
}

/** Minor units as money in the currency, for reading: 5000 USD → "$50.00" (en-US). */
export function formatMinor(minor: number, currency: string, locale?: string): string {
  const exponent = minorUnitExponent(currency);
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: exponent, maximumFractionDigits: exponent }).format(minor / 10 ** exponent);
  } catch {
    return `${toMajorText(minor, currency)} ${currency}`;
  }
}

/** The id's numeric tail, so `gid://shopify/ProductVariant/7` and `7` name the same variant. */
export const idKey = (id: string): string => /(\d+)$/.exec(id)?.[1] ?? id;

/** A decimal amount of the API (analytics) as money in the currency, with its ISO 4217 digits: 40.5 USD → "$40.50". */
export const formatAmount = (amount: number, currency: string, locale?: string): string =>
  formatMinor(Math.round(amount * 10 ** minorUnitExponent(currency)), currency, locale);

/** A whole count with its noun: 1 → "1 order", 3 → "3 orders" (counts are never fractions). */
export function countText(count: number, singular: string, plural = `${singular}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? singular : plural}`;
}

/** `part` of `whole` as a whole percentage, or "–" when there is nothing to divide by. */
export const shareText = (part: number, whole: number): string => (whole === 0 ? '–' : `${Math.round((part / whole) * 100)} %`);

/** What the average orders with and without a gift say, in one sentence (amounts from the API, null when no such order). */
export function averageOrderSentence(withGift: number | null, withoutGift: number | null, currency: string): string {
  const money = (amount: number) => formatAmount(amount, currency);
  if (withGift === null && withoutGift === null) return 'No order was paid in this range.';
  if (withGift === null) return 'No order in this range carried a gift, so there is nothing to compare yet.';
  if (withoutGift === null) return `Every order in this range carried a gift; they average ${money(withGift)}.`;
  const difference = Math.round((withGift - withoutGift) * 10 ** minorUnitExponent(currency)) / 10 ** minorUnitExponent(currency);
  if (difference === 0) return `Orders with a gift average ${money(withGift)}, the same as orders without one.`;
  const direction = difference > 0 ? 'more' : 'less';
  return `Orders with a gift average ${money(withGift)}: ${money(Math.abs(difference))} ${direction} than orders without one (${money(withoutGift)}).`;
}

/** One step after another of the gift funnel, in words: how many were shown, added and ordered. */
export function funnelSentence({ shown, added, ordered }: { shown: number; added: number; ordered: number }): string {
  const orders = `${countText(ordered, 'order')} carried the gift`;
  if (shown === 0 && added === 0) return ordered === 0 ? 'No gift was shown, added or ordered in this range.' : `${orders}.`;
  const adds = `added to a cart ${countText(added, 'time')}`;
  const first = shown === 0 ? `The gift was ${adds}` : `Gifts were shown ${countText(shown, 'time')}; a gift was ${adds} (${shareText(added, shown)} of showings)`;
  return `${first}; ${orders} (${shareText(ordered, added)} of adds).`;
}
