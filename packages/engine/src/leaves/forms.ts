/**
 * The leaf registry's admin piece: each leaf's label and the fields the admin's tree builder
 * shows for it, in order, with the new leaf's starting values. The builder renders these
 * records; it has no per-leaf code. Its own module, so no storefront or checkout bundle
 * carries the words. A leaf type without its form is a compile error (see registry.ts).
 */
import type { LeafOf, LeafType } from '../schema/leaf-node.ts';
import type { FieldOf } from './registry.ts';

/**
 * How the builder edits a field: `money` is minor units of the shop's currency typed in
 * major units; `moneyOverrides` is `CODE=amount` lines in each currency's major units;
 * `overrides` is `key=minor units` lines; `optionalText` and `optionalList` leave the field
 * out when empty; `idOrNumber` sends digits as a number; `choice` is one of `options`;
 * `yesNo` is a boolean offered as the `options` 'true' and 'false'.
 */
export type LeafFieldKind =
  | 'money'
  | 'moneyOverrides'
  | 'overrides'
  | 'integer'
  | 'text'
  | 'optionalText'
  | 'idOrNumber'
  | 'list'
  | 'optionalList'
  | 'choice'
  | 'yesNo';

export type LeafField<K extends LeafType = LeafType> = {
  key: FieldOf<K>;
  kind: LeafFieldKind;
  /** Said after the node's name: "Rule 1 condition.2: amount". */
  label: string;
  help?: string;
  options?: ReadonlyArray<{ label: string; value: string }>;
};

export type LeafForm<K extends LeafType = LeafType> = {
  /** The leaf as the merchant reads it, in the type picker, the simulator's trace and the plan notes. */
  label: string;
  /** A new leaf's values, neutral ones the merchant then fills in. */
  initial: Omit<LeafOf<K>, 'type'>;
  fields: ReadonlyArray<LeafField<K>>;
};

const THRESHOLD_FIELDS = [
  { key: 'value', kind: 'money', label: 'amount' },
  { key: 'currencyOverrides', kind: 'moneyOverrides', label: 'currency overrides', help: 'Optional. One per line, in that currency: EUR=45.00' },
  {
    key: 'marketOverrides',
    kind: 'overrides',
    label: 'market overrides',
    help: "Optional. One per line: market handle=amount in the market currency's smallest unit (cents: 4500 is 45.00)",
  },
] as const;

const RESTRICTION_FIELDS = [
  { key: 'sellingPlanIds', kind: 'optionalList', label: 'only selling plans', help: 'Optional. SellingPlan gids, or _otp for one-time purchases; separate with commas' },
  { key: 'propertyKey', kind: 'optionalText', label: 'only lines with property', help: 'Optional line property name' },
  { key: 'propertyValue', kind: 'optionalText', label: 'property value', help: 'Optional' },
] as const;

const SUBSCRIPTION_OPTIONS = [
  { label: 'Has a subscription line', value: 'has_subscription' },
  { label: 'Has no subscription line', value: 'no_subscription' },
  { label: 'Has a subscription line (default)', value: '' },
];

export const LEAF_FORMS = {
  'cart.subtotal_gte': { label: 'Cart subtotal is at least', initial: { value: 0 }, fields: THRESHOLD_FIELDS },
  'cart.subtotal_lte': { label: 'Cart subtotal is at most', initial: { value: 0 }, fields: THRESHOLD_FIELDS },
  'cart.total_gte': { label: 'Cart total is at least', initial: { value: 0 }, fields: THRESHOLD_FIELDS },
  'cart.item_count_gte': { label: 'Number of items is at least', initial: { value: 1 }, fields: [{ key: 'value', kind: 'integer', label: 'items' }] },
  'line.has_product_id': {
    label: 'Cart contains product',
    initial: { value: '' },
    fields: [{ key: 'value', kind: 'text', label: 'product id', help: 'A Product gid or numeric id' }, ...RESTRICTION_FIELDS],
  },
  'line.has_variant_id': {
    label: 'Cart contains variant',
    initial: { value: '' },
    fields: [{ key: 'value', kind: 'text', label: 'variant id', help: 'A ProductVariant gid or numeric id' }, ...RESTRICTION_FIELDS],
  },
  'line.in_collection': {
    label: 'Cart contains a product of collection',
    initial: { value: '' },
    fields: [{ key: 'value', kind: 'idOrNumber', label: 'collection', help: 'A collection handle, numeric id or Collection gid' }],
  },
  'line.quantity_min': {
    label: 'Quantity of a product or variant is at least',
    initial: { value: 1 },
    fields: [
      { key: 'value', kind: 'integer', label: 'quantity' },
      { key: 'productId', kind: 'optionalText', label: 'product gid', help: 'Give a product or a variant (the variant wins)' },
      { key: 'variantId', kind: 'optionalText', label: 'variant gid' },
      ...RESTRICTION_FIELDS,
    ],
  },
  'line.property_equals': {
    label: 'A line has the property',
    initial: { key: '', value: '' },
    fields: [
      { key: 'key', kind: 'text', label: 'property name' },
      { key: 'value', kind: 'text', label: 'property value' },
    ],
  },
  'line.has_selling_plan': {
    label: 'Subscription lines',
    initial: { value: 'has_subscription' },
    fields: [{ key: 'value', kind: 'choice', label: 'which', options: SUBSCRIPTION_OPTIONS }],
  },
  'customer.tag_in': { label: 'Customer has a tag', initial: { value: [] }, fields: [{ key: 'value', kind: 'list', label: 'tags' }] },
  'customer.is_logged_in': {
    label: 'Customer is logged in',
    initial: { value: true },
    fields: [{ key: 'value', kind: 'yesNo', label: 'value', options: [{ label: 'Logged in', value: 'true' }, { label: 'Not logged in', value: 'false' }] }],
  },
  'market.handle_in': { label: 'Market is one of', initial: { value: [] }, fields: [{ key: 'value', kind: 'list', label: 'market handles' }] },
  'country.in': { label: 'Country is one of', initial: { value: [] }, fields: [{ key: 'value', kind: 'list', label: 'country codes', help: '2-letter codes, separate with commas' }] },
  'discount.code_present': { label: 'A discount code is applied', initial: {}, fields: [] },
  'discount.code_not_present': { label: 'No discount code is applied', initial: {}, fields: [] },
  'discount.code_equals': { label: 'The discount code is', initial: { value: '' }, fields: [{ key: 'value', kind: 'text', label: 'code' }] },
} satisfies { [K in LeafType]: LeafForm<K> };

/**
 * A leaf's form through the common shape.
 *
 * @example leafForm('country.in').label // 'Country is one of'
 */
export const leafForm = (type: LeafType): LeafForm => LEAF_FORMS[type] as LeafForm;

/**
 * A new leaf of the type with its form's starting values.
 *
 * @example newLeaf('cart.item_count_gte') // { type: 'cart.item_count_gte', value: 1 }
 */
export function newLeaf<K extends LeafType>(type: K): LeafOf<K> {
  // The form's `initial` is the leaf without its `type` (checked by the table's `satisfies`).
  return { type, ...LEAF_FORMS[type].initial } as LeafOf<K>;
}
