/**
 * The function's output within the platform's limit (docs/checkout-function.md "Output size").
 * The platform caps a function's output at 20 kB (1 kB = 1,000 bytes, for carts of up to 200
 * lines) and applies *nothing* from an output over it, so one cart with many gift lines would
 * lose every gift. Two steps, each never granting more than the unguarded output:
 *
 * 1. **Merge**: one candidate per distinct discount (same `value`, same `message`) with all its
 *    cartLine targets. A percentage and a per-item fixed amount apply to each target alone, so
 *    the platform discounts exactly what it did with one candidate per rule.
 * 2. **Drop**, only when the merged output is still over the limit: targets are kept while they
 *    fit, rule by rule in the order the merchant ranks rules (higher `priority` first, the
 *    stacking order; then the configuration's order, which is the rules payload's), each rule's
 *    lines in cart order. A target that does not fit is left out (that line pays full price) and
 *    the next one is tried.
 *
 * Sizes are the UTF-8 bytes of the JSON the function writes (no whitespace), counted exactly
 * from the parts, so the kept output is at most the limit to the byte.
 */
import { utf8Length } from './compact-config.ts';
import type { GiftDiscountCandidate, GiftFunctionResult } from './function-input.ts';

/** The platform's cap on a function's output (bytes of JSON, carts of up to 200 lines). */
export const FUNCTION_OUTPUT_LIMIT_BYTES = 20_000;

const NO_DISCOUNT: GiftFunctionResult = { operations: [] };

const resultOf = (candidates: GiftDiscountCandidate[]): GiftFunctionResult =>
  candidates.length === 0 ? NO_DISCOUNT : { operations: [{ productDiscountsAdd: { candidates, selectionStrategy: 'ALL' } }] };

const discountKey = (candidate: GiftDiscountCandidate): string => `${JSON.stringify(candidate.value)}\u0000${candidate.message}`;

/**
 * ASCII from `lastIndex` to the end. Sticky, so a text with a non-ASCII character fails without
 * the retry at every later position an unanchored search makes (3× the cost on a failing text).
 */
const ASCII_TO_END = /[\0-\x7f]+$/y;

/**
 * The UTF-8 bytes of `text`: exactly `utf8Length(text)`, counted by native calls. In QuickJS a
 * call into the runtime such as `charCodeAt` costs ~1,000 instructions, so utf8Length's loop
 * costs ~1,750 a character (25.6M for the 14.5 KB output of 150 gift lines); the regex ~170 a
 * character (docs/checkout-function.md "Instructions"). ASCII (ids, numbers, most titles) is
 * one byte a character. Otherwise `encodeURIComponent` writes each character's UTF-8 bytes as
 * `%XX` and `unescape` turns each `%XX` back into one character. A lone surrogate makes
 * `encodeURIComponent` throw (URIError), as would a runtime without these globals: then
 * utf8Length itself counts.
 *
 * @example textBytes('Geschenk für dich') // 18
 */
export function textBytes(text: string): number {
  ASCII_TO_END.lastIndex = 0;
  if (ASCII_TO_END.test(text)) return text.length;
  try {
    return unescape(encodeURIComponent(text)).length;
  } catch {
    return utf8Length(text);
  }
}

const jsonBytes = (value: unknown): number => textBytes(JSON.stringify(value));

/**
 * Whether `value`'s JSON is at most `limit` bytes. A UTF-16 code unit is at most 3 bytes of
 * UTF-8 (a surrogate pair, 2 units, is 4), so a text of at most `limit / 3` units fits without
 * counting: the usual output (a few targets) skips even textBytes; utf8Length's walk in QuickJS costs
 * ~2K instructions a character (docs/checkout-function.md "Instructions").
 */
function fits(value: unknown, limit: number): boolean {
  const text = JSON.stringify(value);
  return text.length * 3 <= limit || textBytes(text) <= limit;
}

/** One candidate per distinct discount, its targets in the order the candidates give them. */
function merge(candidates: Iterable<GiftDiscountCandidate>): GiftDiscountCandidate[] {
  const byDiscount = new Map<string, GiftDiscountCandidate>();
  for (const candidate of candidates) {
    const key = discountKey(candidate);
    const merged = byDiscount.get(key);
    if (merged === undefined) byDiscount.set(key, { targets: [...candidate.targets], value: candidate.value, message: candidate.message });
    else merged.targets.push(...candidate.targets);
  }
  return [...byDiscount.values()];
}

/**
 * The result for the rules' candidates: merged, and within `limit` bytes of JSON.
 * `configOrder` gives every rule in configuration order (the tie-break after priority); it is
 * called only when the output is over the limit (reading every rule costs instructions).
 *
 * @example fitOutput(candidatesByRule, rulesInConfigOrder) // { operations: [...] }, JSON ≤ 20,000 bytes
 */
export function fitOutput<R extends { priority: number }>(
  byRule: ReadonlyMap<R, GiftDiscountCandidate>,
  configOrder: () => readonly R[],
  limit: number = FUNCTION_OUTPUT_LIMIT_BYTES,
): GiftFunctionResult {
  const merged = resultOf(merge(byRule.values()));
  if (fits(merged, limit)) return merged;

  const rank = new Map<R, number>();
  configOrder().forEach((rule, index) => rank.set(rule, index));
  const rules = [...byRule.keys()].sort((a, b) => b.priority - a.priority || (rank.get(a) ?? 0) - (rank.get(b) ?? 0));
  const kept = new Map<string, GiftDiscountCandidate>();
  // `{"operations":[{"productDiscountsAdd":{"candidates":[],"selectionStrategy":"ALL"}}]}`, then
  // each candidate's shell (`{"targets":[],"value":…,"message":…}`) and each target, with commas.
  let size = jsonBytes({ operations: [{ productDiscountsAdd: { candidates: [], selectionStrategy: 'ALL' } }] });
  for (const rule of rules) {
    const candidate = byRule.get(rule);
    if (candidate === undefined) continue;
    const key = discountKey(candidate);
    for (const target of candidate.targets) {
      const out = kept.get(key);
      const targetBytes = jsonBytes(target);
      const added = out === undefined ? (kept.size > 0 ? 1 : 0) + jsonBytes({ targets: [], value: candidate.value, message: candidate.message }) + targetBytes : (out.targets.length > 0 ? 1 : 0) + targetBytes;
      if (size + added > limit) continue;
      size += added;
      if (out === undefined) kept.set(key, { targets: [target], value: candidate.value, message: candidate.message });
      else out.targets.push(target);
    }
  }
  return resultOf([...kept.values()]);
}
