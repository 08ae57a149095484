/** `line.quantity_min`: summed quantity of a variant (wins) or product >= value. */
import { idKeyOf } from '../ids.ts';
import * as OUTCOME from '../evaluate/outcome-table.ts';
import { preparedLines } from '../evaluate/prepare-context.ts';
import type { LeafPredicate } from '../evaluate/leaf-predicate.ts';
import { always, isValidThreshold } from '../evaluate/leaf-predicate.ts';
import { compileLineFilter, isOutcome } from '../evaluate/line-filter.ts';
import { productGidSchema, variantGidSchema } from '../schema/gid.ts';
import type { LeafForm, LeafMeta, NodeOf, ZodNamespace } from './leaf.ts';
import { PROPERTY_KEY_FIELD, PROPERTY_VALUE_FIELD, SELLING_PLANS_FIELD, lineRestrictions } from './line-restrictions.ts';

export const schema = (z: ZodNamespace) =>
  z.object({
    type: z.literal('line.quantity_min'),
    value: z.int(),
    // Neither id given is accepted at save time; SPEC makes it fail closed at evaluation.
    productId: productGidSchema.optional(),
    variantId: variantGidSchema.optional(),
    ...lineRestrictions(z),
  });
type Leaf = NodeOf<typeof schema>;

/**
 * Summed quantity of the variant (wins) or product >= value.
 *
 * @example predicate({ type: 'line.quantity_min', value: 2, productId: 'gid://shopify/Product/1' })(prepared)
 */
export function predicate(leaf: Leaf): LeafPredicate {
  const minimum: unknown = leaf.value;
  if (!isValidThreshold(minimum)) return always(OUTCOME.invalidThreshold);
  const byVariant = leaf.variantId !== undefined;
  if (!byVariant && leaf.productId === undefined) return always(OUTCOME.missingProductOrVariant);
  const id = idKeyOf(byVariant ? leaf.variantId : leaf.productId);
  if (id === undefined) return always(OUTCOME.invalidId);
  const filter = compileLineFilter(leaf);
  if (isOutcome(filter)) return always(filter);
  if (filter === undefined) {
    return (ctx) => {
      const quantity = (byVariant ? ctx.variantQuantities : ctx.productQuantities).get(id) ?? 0;
      return quantity >= minimum ? OUTCOME.quantityReached : OUTCOME.quantityBelow;
    };
  }
  return (ctx) => {
    let quantity = 0;
    for (const line of preparedLines(ctx)) {
      if ((byVariant ? line.variantId : line.productId) !== id) continue;
      if (!filter(line)) continue;
      quantity += line.quantity;
    }
    return quantity >= minimum ? OUTCOME.quantityReached : OUTCOME.quantityBelow;
  };
}

export const meta = {
  code: 7,
  plan: 'growth',
  fields: ['value', 'productId', 'variantId', 'sellingPlanIds', 'propertyKey', 'propertyValue'],
  ids: ['productId', 'variantId', 'sellingPlanIds'],
  lists: ['sellingPlanIds'],
} as const satisfies LeafMeta<Leaf>;

export const form = {
  label: 'Quantity of a product or variant is at least',
  initial: { value: 1 },
  fields: [
    { key: 'value', kind: 'integer', label: 'quantity' },
    { key: 'productId', kind: 'optionalText', label: 'product gid', help: 'Give a product or a variant (the variant wins)' },
    { key: 'variantId', kind: 'optionalText', label: 'variant gid' },
    SELLING_PLANS_FIELD,
    PROPERTY_KEY_FIELD,
    PROPERTY_VALUE_FIELD,
  ],
} satisfies LeafForm<Leaf>;
