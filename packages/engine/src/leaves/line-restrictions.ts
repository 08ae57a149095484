/**
 * What the line leaves with restrictions (`line.has_product_id`, `line.has_variant_id`,
 * `line.quantity_min`) share: the optional `sellingPlanIds`, `propertyKey` and `propertyValue`
 * that narrow which lines count, in the schema, the compact fields and the admin's fields; and
 * the presence predicate of the two id leaves.
 */
import type { IdKey } from '../ids.ts';
import { idKeyOf } from '../ids.ts';
import type { LeafOutcome } from '../evaluate/outcomes.ts';
import * as OUTCOME from '../evaluate/outcome-table.ts';
import type { PreparedContext, PreparedLine } from '../evaluate/prepare-context.ts';
import { preparedLines } from '../evaluate/prepare-context.ts';
import type { LeafPredicate } from '../evaluate/leaf-predicate.ts';
import { always } from '../evaluate/leaf-predicate.ts';
import { compileLineFilter, isOutcome } from '../evaluate/line-filter.ts';
import { ONE_TIME_PURCHASE } from '../schema/literals.ts';
import { sellingPlanGidSchema } from '../schema/gid.ts';
import { textSchema } from '../schema/text.ts';
import type { ZodNamespace } from './leaf.ts';

/**
 * The restriction fields of a line leaf's schema. An empty `sellingPlanIds` is accepted here;
 * SPEC makes the evaluator fail closed on it.
 *
 * @example z.object({ type: z.literal('line.has_product_id'), value: idSchema, ...lineRestrictions(z) })
 */
export const lineRestrictions = (z: ZodNamespace) => ({
  sellingPlanIds: z.array(z.union([sellingPlanGidSchema, z.literal(ONE_TIME_PURCHASE)])).optional(),
  propertyKey: textSchema.optional(),
  propertyValue: textSchema.optional(),
});

// The restrictions' fields in the admin's tree builder, each its own constant: a leaf's form
// lists them without a spread, which a bundler could not drop from a bundle without forms.
export const SELLING_PLANS_FIELD = {
  key: 'sellingPlanIds',
  kind: 'optionalList',
  label: 'only selling plans',
  help: 'Optional. SellingPlan gids, or _otp for one-time purchases; separate with commas',
} as const;
export const PROPERTY_KEY_FIELD = { key: 'propertyKey', kind: 'optionalText', label: 'only lines with property', help: 'Optional line property name' } as const;
export const PROPERTY_VALUE_FIELD = { key: 'propertyValue', kind: 'optionalText', label: 'property value', help: 'Optional' } as const;

/**
 * Whether a non-gift line is the product or variant `value` and passes the restrictions
 * (ids compared numerically).
 *
 * @example compilePresence(leaf.value, (line) => line.productId, (ctx) => ctx.productQuantities, leaf, found, missing)
 */
export function compilePresence(
  value: unknown,
  idOf: (line: PreparedLine) => IdKey | undefined,
  idsOf: (ctx: PreparedContext) => ReadonlyMap<IdKey, number>,
  leaf: Parameters<typeof compileLineFilter>[0],
  found: LeafOutcome,
  missing: LeafOutcome,
): LeafPredicate {
  const id = idKeyOf(value);
  if (id === undefined) return always(OUTCOME.invalidId);
  const filter = compileLineFilter(leaf);
  if (isOutcome(filter)) return always(filter);
  // Without restrictions the prepared id set answers in O(1).
  if (filter === undefined) return (ctx) => (idsOf(ctx).has(id) ? found : missing);
  return (ctx) => {
    for (const line of preparedLines(ctx)) if (idOf(line) === id && filter(line)) return found;
    return missing;
  };
}
