/** `country.in`: the market country is one of these ISO 3166 alpha-2 codes. */
import * as OUTCOME from '../evaluate/outcome-table.ts';
import type { LeafPredicate } from '../evaluate/leaf-predicate.ts';
import { always } from '../evaluate/leaf-predicate.ts';
import { foldedList, upper } from './folded-list.ts';
import type { LeafForm, LeafMeta, NodeOf, ZodNamespace } from './leaf.ts';

export const schema = (z: ZodNamespace) =>
  z.object({ type: z.literal('country.in'), value: z.array(z.string().regex(/^[A-Za-z]{2}$/, { message: 'Expected a 2-letter country code' })) });
type Leaf = NodeOf<typeof schema>;

/**
 * The market country is listed (case-insensitive).
 *
 * @example predicate({ type: 'country.in', value: ['DE', 'AT'] })(prepared)
 */
export function predicate(leaf: Leaf): LeafPredicate {
  const countries = foldedList(leaf.value, upper);
  if (countries.size === 0) return always(OUTCOME.emptyCountryList);
  return (ctx) => {
    if (ctx.country === undefined || ctx.country === '') return OUTCOME.noMarket;
    return countries.has(ctx.country) ? OUTCOME.countryMatched : OUTCOME.countryNotMatched;
  };
}

export const meta = { code: 13, plan: 'pro', fields: ['value'], lists: ['value'] } as const satisfies LeafMeta<Leaf>;

export const form = {
  label: 'Country is one of',
  initial: { value: [] },
  fields: [{ key: 'value', kind: 'list', label: 'country codes', help: '2-letter codes, separate with commas' }],
} satisfies LeafForm<Leaf>;
