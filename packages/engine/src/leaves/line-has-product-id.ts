/** `line.has_product_id`: at least one non-gift line is the product. */
import * as OUTCOME from '../evaluate/outcome-table.ts';
import type { PreparedLine } from '../evaluate/prepare-context.ts';
import type { LeafPredicate } from '../evaluate/leaf-predicate.ts';
import { gidOrNumericIdSchema } from '../schema/gid.ts';
import type { LeafForm, LeafMeta, NodeOf, ZodNamespace } from './leaf.ts';
import { PROPERTY_KEY_FIELD, PROPERTY_VALUE_FIELD, SELLING_PLANS_FIELD, compilePresence, lineRestrictions } from './line-restrictions.ts';

export const schema = (z: ZodNamespace) =>
  z.object({ type: z.literal('line.has_product_id'), value: gidOrNumericIdSchema('Product'), ...lineRestrictions(z) });
type Leaf = NodeOf<typeof schema>;

const idOf = (line: PreparedLine) => line.productId;

/**
 * A non-gift line is the product (ids compared numerically).
 *
 * @example predicate({ type: 'line.has_product_id', value: '42' })(prepared)
 */
export function predicate(leaf: Leaf): LeafPredicate {
  return compilePresence(leaf.value, idOf, (ctx) => ctx.productQuantities, leaf, OUTCOME.productInCart, OUTCOME.productNotInCart);
}

export const meta = {
  code: 4,
  plan: 'growth',
  fields: ['value', 'sellingPlanIds', 'propertyKey', 'propertyValue'],
  ids: ['value', 'sellingPlanIds'],
  lists: ['sellingPlanIds'],
} as const satisfies LeafMeta<Leaf>;

export const form = {
  label: 'Cart contains product',
  initial: { value: '' },
  fields: [{ key: 'value', kind: 'text', label: 'product id', help: 'A Product gid or numeric id' }, SELLING_PLANS_FIELD, PROPERTY_KEY_FIELD, PROPERTY_VALUE_FIELD],
} satisfies LeafForm<Leaf>;
