import * as z from 'zod';
import { MAYBE_UNSTORABLE, STORABLE_TEXT_PATTERN, TEXT_ISSUE, isStorableText } from './literals.ts';

export { STORABLE_TEXT_PATTERN, TEXT_ISSUE, isStorableText };

/** The pattern check, keeping its `pattern` in JSON Schema and issues, with the fast path of literals.ts. */
function storableTextCheck() {
  const check = z.regex(STORABLE_TEXT_PATTERN, { message: TEXT_ISSUE });
  const full = check._zod.check;
  check._zod.check = (payload) => {
    if (!MAYBE_UNSTORABLE.test(payload.value)) return;
    full(payload);
  };
  return check;
}

/**
 * The one string schema for text a caller sends: every name, id, key, attribute and field.
 *
 * @example textSchema.min(1).parse('Spring gift') // 'Spring gift'; textSchema.parse('a\u0000') throws
 */
export const textSchema = z.string().check(storableTextCheck());
