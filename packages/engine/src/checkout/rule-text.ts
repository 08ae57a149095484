/**
 * A compact rule as one JSON string of the configuration (format 2; docs/checkout-function.md
 * "Rules as texts"). The platform's input reader scans a long string value far more cheaply
 * than it builds nested arrays (in QuickJS ~120 instructions a byte against ~400), and the
 * function parses only the rules a cart claims. Format 2 keeps its rules in an object,
 * `{ "<key>": text }`, so that the function finds a claimed rule by one property read instead
 * of indexing every rule first (~5K instructions a rule in QuickJS); the text is the rule
 * without its key and without the array's brackets, so `"key":"…"` takes exactly the bytes the
 * rule took as an array in format 1 (`["key",…]`).
 *
 * The text is the JSON of the rule's fields after the key with `"` and `'` swapped, so that it
 * needs no escaping inside the metafield's JSON (a `\"` per quote: 14 bytes a depth-4 rule):
 * first every `'` of the JSON is written `\u0027` (valid JSON, the same value), so the JSON has
 * no raw `'`; then each `"` becomes `'`. The text therefore has no `"` at all, and reading it
 * back is one native `replaceAll("'", '"')` and `JSON.parse`: the same value, for any content.
 */
import type { CompactRule, ReadableCheckoutConfig } from './config-format.ts';

/**
 * The text of `rule`: its fields after the key, without the brackets.
 *
 * @example encodeRule(['PfJh', 0, [0, 5000], [45000000090000]]) // "0,[0,5000],[45000000090000]"
 */
export const encodeRule = (rule: CompactRule): string => JSON.stringify(rule.slice(1)).slice(1, -1).replaceAll("'", '\\u0027').replaceAll('"', "'");

/**
 * The rule of `key` whose text is `text`, unchecked (config-rules.ts checks every field);
 * undefined when the text is not a JSON array once restored.
 *
 * @example decodeRule('PfJh', "0,[0,5000],[45000000090000]") // ['PfJh', 0, [0, 5000], [45000000090000]]
 */
export function decodeRule(key: string, text: string): unknown[] | undefined {
  let fields: unknown;
  try {
    fields = JSON.parse(`[${text.replaceAll("'", '"')}]`) as unknown;
  } catch {
    return undefined;
  }
  if (!Array.isArray(fields)) return undefined;
  fields.unshift(key);
  return fields;
}

/**
 * Whether `key` keeps its place among an object's keys: an array index (`"7"`, `"1234"`) is
 * listed before every other key, which would change the rules' order (the order stacking and
 * the output's cut follow).
 */
export const orderedKey = (key: string): boolean => !/^(0|[1-9]\d*)$/.test(key);

/**
 * Every rule of a configuration as its compact array, in order (texts parsed, format 1 as is;
 * a text that is not JSON as undefined): for the server and tests, never the function.
 *
 * @example compactRules(built.config)[0]?.[9] // the first rule's maxPerCustomer
 */
export function compactRules(config: ReadableCheckoutConfig): Array<CompactRule | undefined> {
  if (config.v === 1) return config.r;
  return [config.r, config.r2 ?? {}].flatMap((part) => Object.entries(part).map(([key, text]) => decodeRule(key, text) as CompactRule | undefined));
}
