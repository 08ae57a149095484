/** `line.in_collection`: a non-gift line's product is in the collection (a handle, numeric id or Collection gid). */
import type { IdKey } from '../ids.ts';
import { idKeyOf } from '../ids.ts';
import * as OUTCOME from '../evaluate/outcome-table.ts';
import type { PreparedContext } from '../evaluate/prepare-context.ts';
import { preparedLines } from '../evaluate/prepare-context.ts';
import { collectionHasProductIn, collectionName } from '../evaluate/collection-map.ts';
import type { LeafPredicate } from '../evaluate/leaf-predicate.ts';
import { always } from '../evaluate/leaf-predicate.ts';
import { textSchema } from '../schema/text.ts';
import type { LeafForm, LeafMeta, NodeOf, ZodNamespace } from './leaf.ts';

export const schema = (z: ZodNamespace) =>
  z.object({ type: z.literal('line.in_collection'), value: z.union([textSchema.min(1), z.int().nonnegative()]) });
type Leaf = NodeOf<typeof schema>;

/**
 * The context's collection map first (keys matched by numeric id, or by handle
 * case-insensitively); when it has no entry for the collection, the lines' `_collections`
 * attribute (comma-separated handles or ids) decides.
 *
 * @example predicate({ type: 'line.in_collection', value: 'summer' })(prepared)
 */
export function predicate(leaf: Leaf): LeafPredicate {
  const value: unknown = leaf.value;
  const reference = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const name = collectionName(reference);
  if (name === undefined) return always(OUTCOME.invalidValue);
  // The `_collections` fallback matches ids by id and handles case-insensitively.
  const id = idKeyOf(reference);
  const handle = reference.toLowerCase();
  return (ctx) => {
    let hit = ctx.collectionHits.get(name);
    if (hit === undefined) {
      hit = collectionHasProductIn(ctx.collections, name, ctx.productQuantities) ?? anyLineTagged(ctx, id, handle);
      ctx.collectionHits.set(name, hit);
    }
    return hit ? OUTCOME.collectionInCart : OUTCOME.collectionNotInCart;
  };
}

function anyLineTagged(ctx: PreparedContext, id: IdKey | undefined, handle: string): boolean {
  for (const line of preparedLines(ctx)) {
    if (id !== undefined ? line.collectionIds.has(id) : line.collectionHandles.has(handle)) return true;
  }
  return false;
}

export const meta = { code: 6, plan: 'growth', fields: ['value'] } as const satisfies LeafMeta<Leaf>;

export const form = {
  label: 'Cart contains a product of collection',
  initial: { value: '' },
  fields: [{ key: 'value', kind: 'idOrNumber', label: 'collection', help: 'A collection handle, numeric id or Collection gid' }],
} satisfies LeafForm<Leaf>;
