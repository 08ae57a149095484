/** `customer.tag_in`: the logged-in customer has one of the tags (an array, or one comma-separated string, kept as given). */
import * as OUTCOME from '../evaluate/outcome-table.ts';
import type { LeafPredicate } from '../evaluate/leaf-predicate.ts';
import { always } from '../evaluate/leaf-predicate.ts';
import { textSchema } from '../schema/text.ts';
import { foldedList, lower } from './folded-list.ts';
import type { LeafForm, LeafMeta, NodeOf, ZodNamespace } from './leaf.ts';

export const schema = (z: ZodNamespace) => z.object({ type: z.literal('customer.tag_in'), value: z.union([z.array(textSchema), textSchema]) });
type Leaf = NodeOf<typeof schema>;

/**
 * The logged-in customer has one of the tags (case-insensitive).
 *
 * @example predicate({ type: 'customer.tag_in', value: 'vip, wholesale' })(prepared)
 */
export function predicate(leaf: Leaf): LeafPredicate {
  const tags = foldedList(leaf.value, lower);
  if (tags.size === 0) return always(OUTCOME.emptyTagList);
  return (ctx) => {
    if (!ctx.loggedIn) return OUTCOME.notLoggedInForTags;
    for (const tag of tags) if (ctx.customerTags.has(tag)) return OUTCOME.customerTagMatched;
    return OUTCOME.customerTagNotMatched;
  };
}

export const meta = { code: 10, plan: 'pro', fields: ['value'], lists: ['value'] } as const satisfies LeafMeta<Leaf>;

export const form = { label: 'Customer has a tag', initial: { value: [] }, fields: [{ key: 'value', kind: 'list', label: 'tags' }] } satisfies LeafForm<Leaf>;
