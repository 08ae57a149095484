/**
 * The admin's reading of the leaf registry: each leaf's form (label and fields, from its file)
 * and a new leaf with the form's starting values. The tree builder renders these; it has no
 * per-leaf code.
 */
import type { LeafForm } from './leaf.ts';
import { LEAF_FILES } from './registry.ts';
import type { LeafOf, LeafType } from './registry.ts';

/**
 * A leaf's form through the common shape.
 *
 * @example leafForm('country.in').label // 'Country is one of'
 */
export const leafForm = (type: LeafType): LeafForm => LEAF_FILES[type].form as LeafForm;

/**
 * A new leaf of the type with its form's starting values.
 *
 * @example newLeaf('cart.item_count_gte') // { type: 'cart.item_count_gte', value: 1 }
 */
export function newLeaf<K extends LeafType>(type: K): LeafOf<K> {
  // The form's `initial` is the leaf without its `type` (checked by each file's `satisfies`).
  return { type, ...LEAF_FILES[type].form.initial } as LeafOf<K>;
}
