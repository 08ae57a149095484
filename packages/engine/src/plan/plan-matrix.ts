import * as z from 'zod';
import type { LeafType } from '../leaves/registry.ts';
import { LEAF_TYPES, isLeafType } from '../leaves/registry.ts';
import { LEAVES } from '../leaves/registry.ts';
import { PLAN_IDS, byPlan, planRank } from './plans.ts';
import type { Plan } from './plans.ts';

/** A plan id, as the API takes it: the plan registry's keys, cheapest first. */
export const planSchema = z.enum(PLAN_IDS);

/**
 * SPEC's plan matrix: the leaf types each plan may use, derived from each leaf's plan in
 * the leaf registry (a plan has every leaf of its rank or below, so Pro and Scale are equal).
 */
export const LEAF_TYPES_BY_PLAN: Readonly<Record<Plan, readonly LeafType[]>> = byPlan((plan) =>
  LEAF_TYPES.filter((type) => planRank(LEAVES[type].plan) <= planRank(plan)),
);

/**
 * The cheapest plan whose matrix has the leaf.
 *
 * @example unlockingPlan('customer.tag_in') // 'pro'
 */
export const unlockingPlan = (type: LeafType): Plan => LEAVES[type].plan;

/**
 * Whether `type` is a leaf type the plan may use. Combinators (AND/OR/NOT) and unknown
 * types are not leaves and answer false; every plan may use the combinators.
 *
 * @example isLeafAllowed('free', 'customer.tag_in') // false
 */
export function isLeafAllowed(plan: Plan, type: string): boolean {
  return isLeafType(type) && planRank(LEAVES[type].plan) <= planRank(plan);
}
