/**
 * The leaf registry: one record per condition leaf with what every bundle reads about it:
 * its wire code in the checkout configuration, the cheapest plan that may use it, and its
 * compact fields. The leaf's other pieces are keyed the same way, each in the module its
 * bundle already loads, so that the storefront never loads Zod and the checkout function
 * never loads the admin's words: the Zod schema (schema/leaf-node.ts, the source of
 * `LeafType`), the predicate (evaluate/compile-leaf.ts) and the admin label and fields
 * (leaves/forms.ts). Every one of them is checked with `satisfies` over `LeafType`, so a
 * leaf missing a piece is a compile error. docs/extending.md lists the places.
 */
import type { LeafOf, LeafType } from '../schema/leaf-node.ts';
import type { Plan } from '../plan/plans.ts';

/** A leaf's field names (its keys but `type`). */
export type FieldOf<K extends LeafType> = Exclude<keyof LeafOf<K>, 'type'> & string;

type LeafRecord<K extends LeafType> = {
  /**
   * The leaf's number in the compact tree (`[code, ...fields]`). Stored in shops'
   * configurations, so fixed for ever: never reuse or renumber one (a test pins them).
   */
  code: number;
  /** The cheapest plan whose matrix has the leaf (SPEC "Plans"); every later plan has it too. */
  plan: Plan;
  /** Its fields in the compact form, in this order (a test holds them to the schema's keys). */
  fields: readonly FieldOf<K>[];
  /** Fields holding platform ids, written as their numeric part. */
  ids?: readonly FieldOf<K>[];
  /** Array fields written as a bare value when they hold one element. */
  lists?: readonly FieldOf<K>[];
};

const THRESHOLD = ['value', 'currencyOverrides', 'marketOverrides'] as const;
const RESTRICTIONS = ['sellingPlanIds', 'propertyKey', 'propertyValue'] as const;
const LINE_ID = { fields: ['value', ...RESTRICTIONS], ids: ['value', 'sellingPlanIds'], lists: ['sellingPlanIds'] } as const;

export const LEAVES = {
  'cart.subtotal_gte': { code: 0, plan: 'free', fields: THRESHOLD },
  'cart.subtotal_lte': { code: 1, plan: 'free', fields: THRESHOLD },
  'cart.total_gte': { code: 2, plan: 'free', fields: THRESHOLD },
  'cart.item_count_gte': { code: 3, plan: 'growth', fields: ['value'] },
  'line.has_product_id': { code: 4, plan: 'growth', ...LINE_ID },
  'line.has_variant_id': { code: 5, plan: 'growth', ...LINE_ID },
  'line.in_collection': { code: 6, plan: 'growth', fields: ['value'] },
  'line.quantity_min': {
    code: 7,
    plan: 'growth',
    fields: ['value', 'productId', 'variantId', ...RESTRICTIONS],
    ids: ['productId', 'variantId', 'sellingPlanIds'],
    lists: ['sellingPlanIds'],
  },
  'line.property_equals': { code: 8, plan: 'growth', fields: ['key', 'value'] },
  'line.has_selling_plan': { code: 9, plan: 'growth', fields: ['value'] },
  'customer.tag_in': { code: 10, plan: 'pro', fields: ['value'], lists: ['value'] },
  'customer.is_logged_in': { code: 11, plan: 'pro', fields: ['value'] },
  'market.handle_in': { code: 12, plan: 'pro', fields: ['value'], lists: ['value'] },
  'country.in': { code: 13, plan: 'pro', fields: ['value'], lists: ['value'] },
  'discount.code_present': { code: 14, plan: 'pro', fields: [] },
  'discount.code_not_present': { code: 15, plan: 'pro', fields: [] },
  'discount.code_equals': { code: 16, plan: 'pro', fields: ['value'] },
} as const satisfies { [K in LeafType]: LeafRecord<K> };

/** A leaf's record as code that walks every leaf reads it. */
export type AnyLeafRecord = { code: number; plan: Plan; fields: readonly string[]; ids?: readonly string[]; lists?: readonly string[] };

/**
 * A leaf's record through the common shape.
 *
 * @example leafRecord('country.in').code // 13
 */
export const leafRecord = (type: LeafType): AnyLeafRecord => LEAVES[type];
