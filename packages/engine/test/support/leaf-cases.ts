/**
 * The table of SPEC's leaves and their fail-closed cases: [name, tree, context, matched, reason].
 * Shared by the engine's own leaf tests and the server's agreement test (`/evaluate` and the
 * library must agree on every case), so both always run the very same cases.
 */
import type { ConditionNode, EvaluationContext } from '../../src/index.ts';
import { context, giftLine, line } from './contexts.ts';
import { gid } from './trees.ts';

export type LeafCase = [name: string, leaf: ConditionNode, ctx: EvaluationContext, matched: boolean, reason: string];

const usd = (lines = [line({ price: 2500, quantity: 2 })], extra: Partial<EvaluationContext> = {}) => context(lines, extra);
const eur = (extra: Partial<EvaluationContext> = {}) => ({ ...usd(), ...extra, cart: { ...usd().cart, currency: 'EUR' } });
const subtotalGte = (value: number, more: object = {}) => ({ type: 'cart.subtotal_gte', value, ...more }) as ConditionNode;

const thresholds: LeafCase[] = [
  ['subtotal equal to threshold matches', subtotalGte(5000), usd(), true, 'subtotal_at_or_above_threshold'],
  ['subtotal below', subtotalGte(5001), usd(), false, 'subtotal_below_threshold'],
  ['gift lines excluded from subtotal', subtotalGte(5001), usd([line({ price: 2500, quantity: 2 }), giftLine()]), false, 'subtotal_below_threshold'],
  ['lte equal matches', { type: 'cart.subtotal_lte', value: 5000 }, usd(), true, 'subtotal_at_or_below_threshold'],
  ['lte above', { type: 'cart.subtotal_lte', value: 4999 }, usd(), false, 'subtotal_above_threshold'],
  ['foreign currency without override fails closed', subtotalGte(1), eur(), false, 'foreign_currency_no_override'],
  ['lte foreign currency fails closed too', { type: 'cart.subtotal_lte', value: 999999 }, eur(), false, 'foreign_currency_no_override'],
  ['currency override used', subtotalGte(999999, { currencyOverrides: { EUR: 5000 } }), eur(), true, 'subtotal_at_or_above_threshold'],
  ['currency override case-insensitive', subtotalGte(999999, { currencyOverrides: { eur: 5000 } }), eur(), true, 'subtotal_at_or_above_threshold'],
  ['market override wins over currency override', subtotalGte(1, { currencyOverrides: { EUR: 1 }, marketOverrides: { europe: 6000 } }), eur({ market: { handle: 'Europe', country: 'DE' } }), false, 'subtotal_below_threshold'],
  ['market override of another market ignored', subtotalGte(6000, { marketOverrides: { uk: 1 } }), usd([line({ price: 2500, quantity: 2 })], { market: { handle: 'us', country: 'US' } }), false, 'subtotal_below_threshold'],
  ['negative value fails closed', subtotalGte(-1), usd(), false, 'invalid_threshold'],
  ['negative override fails closed (no fall-through)', subtotalGte(1, { currencyOverrides: { USD: -5 } }), usd(), false, 'invalid_threshold'],
  ['NaN value fails closed', subtotalGte(Number.NaN), usd(), false, 'invalid_threshold'],
  ['infinite market override fails closed', subtotalGte(1, { marketOverrides: { eu: Number.POSITIVE_INFINITY } }), usd([line()], { market: { handle: 'eu', country: 'DE' } }), false, 'invalid_threshold'],
  ['total adds shipping and tax', { type: 'cart.total_gte', value: 5600 }, context([line({ price: 2500, quantity: 2 })], {}), false, 'total_below_threshold'],
  ['total with shipping and tax', { type: 'cart.total_gte', value: 5600 }, { cart: { currency: 'USD', lines: [line({ price: 2500, quantity: 2 })], shipping: 500, tax: 100 } }, true, 'total_at_or_above_threshold'],
  ['total foreign currency fails closed', { type: 'cart.total_gte', value: 1 }, eur(), false, 'foreign_currency_no_override'],
  ['item count reached', { type: 'cart.item_count_gte', value: 2 }, usd(), true, 'item_count_reached'],
  ['item count ignores gifts', { type: 'cart.item_count_gte', value: 3 }, usd([line({ quantity: 2 }), giftLine()]), false, 'item_count_below_threshold'],
  ['item count negative fails closed', { type: 'cart.item_count_gte', value: -1 }, usd(), false, 'invalid_threshold'],
  ['item count NaN fails closed', { type: 'cart.item_count_gte', value: Number.NaN }, usd(), false, 'invalid_threshold'],
];

const subscription = line({ productId: gid.product(2), variantId: gid.variant(22), sellingPlanId: gid.plan(7) });
const linePresence: LeafCase[] = [
  ['product by gid', { type: 'line.has_product_id', value: gid.product(1) }, usd(), true, 'product_in_cart'],
  ['product by numeric id vs gid line', { type: 'line.has_product_id', value: '1' }, usd(), true, 'product_in_cart'],
  ['product by number vs numeric line', { type: 'line.has_product_id', value: gid.product(3) }, usd([line({ productId: 3 })]), true, 'product_in_cart'],
  ['product absent', { type: 'line.has_product_id', value: '2' }, usd(), false, 'product_not_in_cart'],
  ['gift line is not presence', { type: 'line.has_product_id', value: gid.product(900) }, usd([line(), giftLine()]), false, 'product_not_in_cart'],
  ['invalid product id fails closed', { type: 'line.has_product_id', value: 'gid://x' } as never, usd(), false, 'invalid_id'],
  ['selling plan listed', { type: 'line.has_product_id', value: '2', sellingPlanIds: [gid.plan(7)] }, usd([line(), subscription]), true, 'product_in_cart'],
  ['selling plan not listed', { type: 'line.has_product_id', value: '2', sellingPlanIds: [gid.plan(8)] }, usd([line(), subscription]), false, 'product_not_in_cart'],
  ['_otp matches one-time lines', { type: 'line.has_product_id', value: '1', sellingPlanIds: ['_otp'] }, usd([line(), subscription]), true, 'product_in_cart'],
  ['_otp rejects subscription lines', { type: 'line.has_product_id', value: '2', sellingPlanIds: ['_otp'] }, usd([line(), subscription]), false, 'product_not_in_cart'],
  ['empty selling plans fail closed', { type: 'line.has_product_id', value: '1', sellingPlanIds: [] }, usd(), false, 'empty_selling_plan_ids'],
  ['property restriction met', { type: 'line.has_product_id', value: '1', propertyKey: 'engraving', propertyValue: 'yes' }, usd([line({ attributes: { engraving: 'yes' } })]), true, 'product_in_cart'],
  ['property restriction not met', { type: 'line.has_product_id', value: '1', propertyKey: 'engraving', propertyValue: 'yes' }, usd([line({ attributes: { engraving: 'no' } })]), false, 'product_not_in_cart'],
  ['variant by gid', { type: 'line.has_variant_id', value: gid.variant(11) }, usd(), true, 'variant_in_cart'],
  ['variant absent', { type: 'line.has_variant_id', value: gid.variant(12) }, usd(), false, 'variant_not_in_cart'],
  ['variant with empty plans fails closed', { type: 'line.has_variant_id', value: gid.variant(11), sellingPlanIds: [] }, usd(), false, 'empty_selling_plan_ids'],
];

const collections = { summer: [gid.product(1)], [gid.collection(55)]: ['2'] };
const collectionCases: LeafCase[] = [
  ['collection by handle via map', { type: 'line.in_collection', value: 'summer' }, usd([line()], { collections }), true, 'collection_in_cart'],
  ['collection handle case-insensitive', { type: 'line.in_collection', value: 'Summer' }, usd([line()], { collections }), true, 'collection_in_cart'],
  ['collection by numeric id via gid key', { type: 'line.in_collection', value: '55' }, usd([line({ productId: '2' })], { collections }), true, 'collection_in_cart'],
  ['collection by gid via gid key', { type: 'line.in_collection', value: gid.collection(55) }, usd([line()], { collections }), false, 'collection_not_in_cart'],
  ['map entry wins over attribute', { type: 'line.in_collection', value: 'summer' }, usd([line({ productId: '5', attributes: { _collections: 'summer' } })], { collections }), false, 'collection_not_in_cart'],
  ['fallback to _collections handles', { type: 'line.in_collection', value: 'winter' }, usd([line({ attributes: { _collections: 'spring, Winter' } })], { collections }), true, 'collection_in_cart'],
  ['fallback to _collections ids', { type: 'line.in_collection', value: gid.collection(77) }, usd([line({ attributes: { _collections: 'a,77' } })]), true, 'collection_in_cart'],
  ['fallback ignores gift lines', { type: 'line.in_collection', value: 'winter' }, usd([line(), giftLine({ attributes: { _collections: 'winter' } })]), false, 'collection_not_in_cart'],
  ['no map, no attribute', { type: 'line.in_collection', value: 'winter' }, usd(), false, 'collection_not_in_cart'],
];

const quantityCases: LeafCase[] = [
  ['quantity summed over lines of the product', { type: 'line.quantity_min', value: 3, productId: gid.product(1) }, usd([line({ quantity: 1 }), line({ variantId: gid.variant(12), quantity: 2 })]), true, 'quantity_reached'],
  ['variant wins over product', { type: 'line.quantity_min', value: 2, productId: gid.product(1), variantId: gid.variant(12) }, usd([line({ quantity: 5 }), line({ variantId: gid.variant(12), quantity: 1 })]), false, 'quantity_below_minimum'],
  ['gift quantities excluded', { type: 'line.quantity_min', value: 2, productId: gid.product(900) }, usd([line(), giftLine()]), false, 'quantity_below_minimum'],
  ['neither id fails closed', { type: 'line.quantity_min', value: 1 }, usd(), false, 'missing_product_or_variant'],
  ['negative minimum fails closed', { type: 'line.quantity_min', value: -1, productId: gid.product(1) }, usd(), false, 'invalid_threshold'],
  ['infinite minimum fails closed', { type: 'line.quantity_min', value: Number.POSITIVE_INFINITY, productId: gid.product(1) }, usd(), false, 'invalid_threshold'],
  ['selling plan restriction on quantity', { type: 'line.quantity_min', value: 1, productId: gid.product(2), sellingPlanIds: ['_otp'] }, usd([subscription]), false, 'quantity_below_minimum'],
  ['empty plans on quantity fail closed', { type: 'line.quantity_min', value: 1, productId: gid.product(1), sellingPlanIds: [] }, usd(), false, 'empty_selling_plan_ids'],
];

const propertyCases: LeafCase[] = [
  ['property equals', { type: 'line.property_equals', key: 'gift_wrap', value: 'yes' }, usd([line({ attributes: { gift_wrap: 'yes' } })]), true, 'property_found'],
  ['quotes stripped from the rule', { type: 'line.property_equals', key: '"gift_wrap"', value: "'yes'" }, usd([line({ attributes: { gift_wrap: 'yes' } })]), true, 'property_found'],
  ['quotes stripped from the line value', { type: 'line.property_equals', key: 'gift_wrap', value: 'yes' }, usd([line({ attributes: { gift_wrap: '"yes"' } })]), true, 'property_found'],
  ['only one pair stripped', { type: 'line.property_equals', key: 'k', value: '""yes""' }, usd([line({ attributes: { k: 'yes' } })]), false, 'property_not_found'],
  ['mismatched quotes kept', { type: 'line.property_equals', key: 'k', value: '"yes\'' }, usd([line({ attributes: { k: 'yes' } })]), false, 'property_not_found'],
  ['value differs', { type: 'line.property_equals', key: 'k', value: 'no' }, usd([line({ attributes: { k: 'yes' } })]), false, 'property_not_found'],
  ['empty key fails closed', { type: 'line.property_equals', key: '', value: '' }, usd([line({ attributes: { '': '' } })]), false, 'empty_property_key'],
  ['quoted empty key fails closed', { type: 'line.property_equals', key: '""', value: 'x' }, usd(), false, 'empty_property_key'],
  ['gift line properties ignored', { type: 'line.property_equals', key: '_svc_auto', value: 'true' }, usd([line(), giftLine()]), false, 'property_not_found'],
  ['has subscription', { type: 'line.has_selling_plan', value: 'has_subscription' }, usd([line(), subscription]), true, 'subscription_in_cart'],
  ['empty value means has_subscription', { type: 'line.has_selling_plan', value: '' }, usd(), false, 'no_subscription_in_cart'],
  ['absent value means has_subscription', { type: 'line.has_selling_plan' }, usd([subscription]), true, 'subscription_in_cart'],
  ['no subscription', { type: 'line.has_selling_plan', value: 'no_subscription' }, usd(), true, 'no_subscription_in_cart'],
  ['no subscription fails with one', { type: 'line.has_selling_plan', value: 'no_subscription' }, usd([subscription]), false, 'subscription_in_cart'],
  ['gift subscription lines ignored', { type: 'line.has_selling_plan', value: 'has_subscription' }, usd([line(), giftLine({ sellingPlanId: gid.plan(1) })]), false, 'no_subscription_in_cart'],
  ['unknown selling plan value fails closed', { type: 'line.has_selling_plan', value: 'sometimes' } as never, usd(), false, 'invalid_value'],
];

const vip = { customer: { loggedIn: true, tags: ['VIP ', 'wholesale'] } };
const audienceCases: LeafCase[] = [
  ['tag case-insensitive', { type: 'customer.tag_in', value: ['vip'] }, usd(undefined, vip), true, 'customer_tag_matched'],
  ['tag comma string normalised', { type: 'customer.tag_in', value: ' retail , Wholesale' }, usd(undefined, vip), true, 'customer_tag_matched'],
  ['tag missing', { type: 'customer.tag_in', value: ['retail'] }, usd(undefined, vip), false, 'customer_tag_not_matched'],
  ['tags empty fail closed', { type: 'customer.tag_in', value: [] }, usd(undefined, vip), false, 'empty_tag_list'],
  ['tags blank string fails closed', { type: 'customer.tag_in', value: ' , ' }, usd(undefined, vip), false, 'empty_tag_list'],
  ['no customer', { type: 'customer.tag_in', value: ['vip'] }, usd(), false, 'customer_not_logged_in'],
  ['customer not logged in', { type: 'customer.tag_in', value: ['vip'] }, usd(undefined, { customer: { loggedIn: false, tags: ['vip'] } }), false, 'customer_not_logged_in'],
  ['logged in true', { type: 'customer.is_logged_in', value: true }, usd(undefined, vip), true, 'customer_logged_in'],
  ["logged in 'true'", { type: 'customer.is_logged_in', value: 'true' }, usd(), false, 'customer_not_logged_in'],
  ["logged in 'false' with no customer", { type: 'customer.is_logged_in', value: 'false' }, usd(undefined, { customer: null }), true, 'customer_not_logged_in'],
  ['logged in false when logged in', { type: 'customer.is_logged_in', value: false }, usd(undefined, vip), false, 'customer_logged_in'],
  ['logged in other value fails closed', { type: 'customer.is_logged_in', value: 'yes' } as never, usd(undefined, vip), false, 'invalid_value'],
  ['logged in 1 fails closed', { type: 'customer.is_logged_in', value: 1 } as never, usd(), false, 'invalid_value'],
  ['market case-insensitive', { type: 'market.handle_in', value: ['EU'] }, usd(undefined, { market: { handle: 'eu', country: 'DE' } }), true, 'market_matched'],
  ['market not listed', { type: 'market.handle_in', value: ['uk'] }, usd(undefined, { market: { handle: 'eu', country: 'DE' } }), false, 'market_not_matched'],
  ['market list empty fails closed', { type: 'market.handle_in', value: [] }, usd(undefined, { market: { handle: 'eu', country: 'DE' } }), false, 'empty_market_list'],
  ['no market', { type: 'market.handle_in', value: ['eu'] }, usd(), false, 'no_market'],
  ['country case-insensitive', { type: 'country.in', value: ['de', 'FR'] }, usd(undefined, { market: { handle: 'eu', country: 'DE' } }), true, 'country_matched'],
  ['country not listed', { type: 'country.in', value: ['FR'] }, usd(undefined, { market: { handle: 'eu', country: 'de' } }), false, 'country_not_matched'],
  ['country list empty fails closed', { type: 'country.in', value: [] }, usd(undefined, { market: { handle: 'eu', country: 'DE' } }), false, 'empty_country_list'],
  ['country without market', { type: 'country.in', value: ['DE'] }, usd(undefined, { market: null }), false, 'no_market'],
];

const withCodes = (codes: string[]) => ({ cart: { currency: 'USD', lines: [line()], discountCodes: codes } });
const discountCases: LeafCase[] = [
  ['code present', { type: 'discount.code_present' }, withCodes(['SAVE']), true, 'discount_code_present'],
  ['code present without codes', { type: 'discount.code_present' }, withCodes([]), false, 'no_discount_code'],
  ['blank codes are no codes', { type: 'discount.code_present' }, withCodes(['  ']), false, 'no_discount_code'],
  ['code not present', { type: 'discount.code_not_present' }, usd(), true, 'no_discount_code'],
  ['code not present with a code', { type: 'discount.code_not_present' }, withCodes(['X']), false, 'discount_code_present'],
  ['code equals uppercased and trimmed', { type: 'discount.code_equals', value: ' save10' }, withCodes(['Save10 ']), true, 'discount_code_matched'],
  ['code equals other code', { type: 'discount.code_equals', value: 'SAVE20' }, withCodes(['SAVE10']), false, 'discount_code_not_matched'],
  ['code equals empty fails closed', { type: 'discount.code_equals', value: ' ' }, withCodes([' ']), false, 'invalid_value'],
];

const malformed: LeafCase[] = [
  ['unknown leaf type fails closed', { type: 'cart.sparkle' } as never, usd(), false, 'unknown_condition_type'],
  ['empty AND never matches', { type: 'AND', children: [] }, usd(), false, 'empty_children'],
  ['empty OR never matches', { type: 'OR', children: [] }, usd(), false, 'empty_children'],
  ['NOT(AND[]) matches: NOT inverts its child', { type: 'NOT', child: { type: 'AND', children: [] } }, usd(), true, 'empty_children'],
  ['NOT without child fails closed', { type: 'NOT' } as never, usd(), false, 'malformed_node'],
];

/** Every group of the table, in the order the leaf tests report them. */
export const LEAF_CASE_GROUPS: ReadonlyArray<readonly [group: string, cases: readonly LeafCase[]]> = [
  ['thresholds', thresholds],
  ['line presence', linePresence],
  ['collections', collectionCases],
  ['quantity', quantityCases],
  ['properties and selling plans', propertyCases],
  ['customer, market, country', audienceCases],
  ['discount codes', discountCases],
  ['malformed trees', malformed],
];
