/** `customer.is_logged_in`: whether the shopper is logged in. */
import * as OUTCOME from '../evaluate/outcome-table.ts';
import type { LeafPredicate } from '../evaluate/leaf-predicate.ts';
import { always } from '../evaluate/leaf-predicate.ts';
import { TEXT_ISSUE, isStorableText } from '../schema/literals.ts';
import type { LeafForm, LeafMeta, NodeOf, ZodNamespace } from './leaf.ts';

// True when every string in a JSON value (at any depth; walked with a stack) is storable.
function holdsOnlyStorableText(value: unknown): boolean {
  const stack: unknown[] = [value];
  for (let item = stack.pop(); stack.length > 0 || item !== undefined; item = stack.pop()) {
    if (typeof item === 'string') {
      if (!isStorableText(item)) return false;
    } else if (Array.isArray(item)) {
      stack.push(...item);
    } else if (typeof item === 'object' && item !== null) {
      for (const [key, inner] of Object.entries(item)) {
        if (!isStorableText(key)) return false;
        stack.push(inner);
      }
    }
  }
  return true;
}

/**
 * SPEC: "`value` boolean, required; the strings `true` / `false` are coerced; other values
 * fail closed." So any present value is accepted and stored as sent (a rule saved with
 * `'yes'` reads back `'yes'`); the evaluator answers only for true/false/'true'/'false' and
 * fails closed (`invalid_value`) for anything else.
 */
export const schema = (z: ZodNamespace) =>
  z.object({
    type: z.literal('customer.is_logged_in'),
    // z.unknown() keeps the key required: a missing value is still a 400. Whatever is
    // stored must be storable, so every string inside it follows the text rule.
    value: z.unknown().refine(holdsOnlyStorableText, { message: TEXT_ISSUE }).meta({
      description: "true or false (the strings 'true' and 'false' too). Any other value is stored as sent and never matches.",
    }),
  });
type Leaf = NodeOf<typeof schema>;

/**
 * true/false or 'true'/'false'; anything else fails closed.
 *
 * @example predicate({ type: 'customer.is_logged_in', value: 'true' })(prepared)
 */
export function predicate(leaf: Leaf): LeafPredicate {
  const value: unknown = leaf.value;
  const wanted = value === true || value === 'true' ? true : value === false || value === 'false' ? false : undefined;
  if (wanted === undefined) return always(OUTCOME.invalidValue);
  return (ctx) => {
    if (ctx.loggedIn) return wanted ? OUTCOME.loggedIn.yes : OUTCOME.loggedIn.no;
    return wanted ? OUTCOME.notLoggedIn.no : OUTCOME.notLoggedIn.yes;
  };
}

export const meta = { code: 11, plan: 'pro', fields: ['value'] } as const satisfies LeafMeta<Leaf>;

export const form = {
  label: 'Customer is logged in',
  initial: { value: true },
  fields: [{ key: 'value', kind: 'yesNo', label: 'value', options: [{ label: 'Logged in', value: 'true' }, { label: 'Not logged in', value: 'false' }] }],
} satisfies LeafForm<Leaf>;
