import type { IdKey } from '../ids.ts';
import { idKeyOf } from '../ids.ts';
import { ONE_TIME_PURCHASE } from '../schema/literals.ts';
import type { LeafOutcome } from './outcomes.ts';
import * as OUTCOME from './outcome-table.ts';
import type { PreparedLine } from './prepare-context.ts';

/** A restriction on which lines count; `undefined` means every line counts. */
export type LineFilter = ((line: PreparedLine) => boolean) | undefined;

type Restrictions = {
  sellingPlanIds?: readonly unknown[] | undefined;
  propertyKey?: string | undefined;
  propertyValue?: string | undefined;
};

/**
 * Compiles the optional `sellingPlanIds` / `propertyKey` / `propertyValue` restrictions
 * of the line leaves, or the outcome to fail closed with.
 * - `sellingPlanIds`: a line counts when its plan (numeric id) is listed, or, for `_otp`,
 *   when it has no plan. An empty array fails closed (SPEC).
 * - `propertyKey`: the line must carry that attribute; with `propertyValue` also that exact
 *   value. An empty key is no restriction; a value without a key is ignored.
 *
 * @example compileLineFilter({ sellingPlanIds: ['_otp'] }) // lines without a selling plan
 */
export function compileLineFilter(leaf: Restrictions): LineFilter | LeafOutcome {
  const plans = leaf.sellingPlanIds;
  let planFilter: LineFilter;
  if (plans !== undefined) {
    if (!Array.isArray(plans) || plans.length === 0) return OUTCOME.emptySellingPlanIds;
    const ids = new Set<IdKey>();
    let oneTime = false;
    for (const plan of plans) {
      if (plan === ONE_TIME_PURCHASE) oneTime = true;
      const id = idKeyOf(plan);
      if (id !== undefined) ids.add(id);
    }
    planFilter = (line) =>
      line.hasSellingPlan
        ? line.sellingPlanId !== undefined && ids.has(line.sellingPlanId)
        : oneTime;
  }
  const key = typeof leaf.propertyKey === 'string' && leaf.propertyKey !== '' ? leaf.propertyKey : undefined;
  const value = typeof leaf.propertyValue === 'string' ? leaf.propertyValue : undefined;
  let propertyFilter: LineFilter;
  if (key !== undefined) {
    propertyFilter = (line) => {
      const attributes = line.attributes;
      if (attributes === undefined || !Object.hasOwn(attributes, key)) return false;
      return value === undefined || attributes[key] === value;
    };
  }
  if (planFilter === undefined) return propertyFilter;
  if (propertyFilter === undefined) return planFilter;
  const first = planFilter;
  const second = propertyFilter;
  return (line) => first(line) && second(line);
}

/**
 * Separates a compiled filter from a fail-closed outcome.
 *
 * @example if (isOutcome(filter)) return () => filter;
 */
export function isOutcome(value: LineFilter | LeafOutcome): value is LeafOutcome {
  return typeof value === 'object';
}
