/** `line.has_variant_id`: at least one non-gift line is the variant. */
import * as OUTCOME from '../evaluate/outcome-table.ts';
import type { PreparedLine } from '../evaluate/prepare-context.ts';
import type { LeafPredicate } from '../evaluate/leaf-predicate.ts';
import { gidOrNumericIdSchema } from '../schema/gid.ts';
import type { LeafForm, LeafMeta, NodeOf, ZodNamespace } from './leaf.ts';
import { PROPERTY_KEY_FIELD, PROPERTY_VALUE_FIELD, SELLING_PLANS_FIELD, compilePresence, lineRestrictions } from './line-restrictions.ts';

export const schema = (z: ZodNamespace) =>
  z.object({ type: z.literal('line.has_variant_id'), value: gidOrNumericIdSchema('ProductVariant'), ...lineRestrictions(z) });
type Leaf = NodeOf<typeof schema>;

const idOf = (line: PreparedLine) => line.variantId;

/**
 * A non-gift line is the variant (ids compared numerically).
 *
 * @example predicate({ type: 'line.has_variant_id', value: 'gid://shopify/ProductVariant/7' })(prepared)
 */
export function predicate(leaf: Leaf): LeafPredicate {
  return compilePresence(leaf.value, idOf, (ctx) => ctx.variantQuantities, leaf, OUTCOME.variantInCart, OUTCOME.variantNotInCart);
}

export const meta = {
  code: 5,
  plan: 'growth',
  fields: ['value', 'sellingPlanIds', 'propertyKey', 'propertyValue'],
  ids: ['value', 'sellingPlanIds'],
  lists: ['sellingPlanIds'],
} as const satisfies LeafMeta<Leaf>;

export const form = {
  label: 'Cart contains variant',
  initial: { value: '' },
  fields: [{ key: 'value', kind: 'text', label: 'variant id', help: 'A ProductVariant gid or numeric id' }, SELLING_PLANS_FIELD, PROPERTY_KEY_FIELD, PROPERTY_VALUE_FIELD],
} satisfies LeafForm<Leaf>;
