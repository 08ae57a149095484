import * as z from 'zod';
import type { LeafType } from '../schema/leaf-node.ts';
import { isLeafType } from '../schema/leaf-node.ts';

export const planSchema = z.enum(['free', 'growth', 'pro', 'scale']);
export type Plan = z.output<typeof planSchema>;

/**
 * Each plan's name as people read it: the admin's labels, and the `name` of the platform's
 * app subscription for a paid plan (`app_subscriptions/update` is matched on it).
 */
export const PLAN_NAMES: Readonly<Record<Plan, string>> = { free: 'Free', growth: 'Growth', pro: 'Pro', scale: 'Scale' };

const FREE: readonly LeafType[] = ['cart.subtotal_gte', 'cart.subtotal_lte', 'cart.total_gte'];
const GROWTH: readonly LeafType[] = [
  ...FREE,
  'cart.item_count_gte',
  'line.has_product_id',
  'line.has_variant_id',
  'line.in_collection',
  'line.quantity_min',
  'line.property_equals',
  'line.has_selling_plan',
];
const PRO: readonly LeafType[] = [
  ...GROWTH,
  'customer.tag_in',
  'customer.is_logged_in',
  'market.handle_in',
  'country.in',
  'discount.code_present',
  'discount.code_not_present',
  'discount.code_equals',
];

/** SPEC's plan matrix: the leaf types each plan may use. Pro and Scale are equal. */
export const LEAF_TYPES_BY_PLAN: Readonly<Record<Plan, readonly LeafType[]>> = {
  free: FREE,
  growth: GROWTH,
  pro: PRO,
  scale: PRO,
};

const ALLOWED: Readonly<Record<Plan, ReadonlySet<string>>> = {
  free: new Set(FREE),
  growth: new Set(GROWTH),
  pro: new Set(PRO),
  scale: new Set(PRO),
};

/**
 * Whether `type` is a leaf type the plan may use. Combinators (AND/OR/NOT) and unknown
 * types are not leaves and answer false; every plan may use the combinators.
 *
 * @example isLeafAllowed('free', 'customer.tag_in') // false
 */
export function isLeafAllowed(plan: Plan, type: string): boolean {
  return isLeafType(type) && ALLOWED[plan].has(type);
}
