/** `market.handle_in`: the active market's handle is one of these (case-insensitive). */
import * as OUTCOME from '../evaluate/outcome-table.ts';
import type { LeafPredicate } from '../evaluate/leaf-predicate.ts';
import { always } from '../evaluate/leaf-predicate.ts';
import { textSchema } from '../schema/text.ts';
import { foldedList, lower } from './folded-list.ts';
import type { LeafForm, LeafMeta, NodeOf, ZodNamespace } from './leaf.ts';

export const schema = (z: ZodNamespace) => z.object({ type: z.literal('market.handle_in'), value: z.array(textSchema) });
type Leaf = NodeOf<typeof schema>;

/**
 * The active market handle is listed (case-insensitive).
 *
 * @example predicate({ type: 'market.handle_in', value: ['eu'] })(prepared)
 */
export function predicate(leaf: Leaf): LeafPredicate {
  const handles = foldedList(leaf.value, lower);
  if (handles.size === 0) return always(OUTCOME.emptyMarketList);
  return (ctx) => {
    if (ctx.marketHandle === undefined || ctx.marketHandle === '') return OUTCOME.noMarket;
    return handles.has(ctx.marketHandle) ? OUTCOME.marketMatched : OUTCOME.marketNotMatched;
  };
}

export const meta = { code: 12, plan: 'pro', fields: ['value'], lists: ['value'] } as const satisfies LeafMeta<Leaf>;

export const form = { label: 'Market is one of', initial: { value: [] }, fields: [{ key: 'value', kind: 'list', label: 'market handles' }] } satisfies LeafForm<Leaf>;
