import type { LeafOutcome } from './outcomes.ts';
import type { PreparedContext } from './prepare-context.ts';

/**
 * A leaf compiled once: its rule values are already normalised (ids reduced to numbers,
 * tags lowercased, ...), so a call only reads the prepared context and allocates nothing.
 */
export type LeafPredicate = (ctx: PreparedContext) => LeafOutcome;

/**
 * A leaf that answers the same outcome for every cart (a rule value it cannot use).
 *
 * @example always(OUTCOME.invalidValue)(prepared) // OUTCOME.invalidValue
 */
export const always = (outcome: LeafOutcome): LeafPredicate => () => outcome;

/**
 * A non-negative finite number: SPEC's valid threshold or minimum.
 *
 * @example isValidThreshold(-1) // false
 */
export function isValidThreshold(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/**
 * Reads an object that the schema says is a record but unvalidated input may not be.
 *
 * @example ownEntries({ EUR: 5000 }) // [['EUR', 5000]]
 */
export function ownEntries(value: unknown): Array<[string, unknown]> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.entries(value);
}
