/**
 * An estimate of the discount function's input at 200 lines, from the configuration alone
 * (docs/checkout-function.md "The input at 200 lines"). The platform caps the input at 128,000
 * bytes for carts of up to 200 lines and runs no discount on an input over it; the input grows
 * with the configuration's metafields and, on every line, with each collection the rules name
 * (`inCollections(ids: $collectionIds)`). The enable route warns when the estimate is over.
 *
 * The constants are measured on the tests' largest input (`fullInput`,
 * test/support/checkout-deep-shop.ts) and test/checkout-function-size.test.ts checks the estimate
 * against real built inputs, so they cannot drift from the input query.
 */
import type { CheckoutConfigBuild, CompactRule } from './compact-config.ts';
import { utf8Length } from './config-bytes.ts';
import { compactRules } from './rule-text.ts';

/** The platform's cap on a function's input for carts of up to 200 lines (1 kB = 1,000 bytes). */
export const FUNCTION_INPUT_LIMIT_BYTES = 128_000;

/** The largest cart the limit above is given for. */
export const FUNCTION_INPUT_LINES = 200;

/**
 * One cart line with no collection asked, and its comma: a claimed gift line (its line id a
 * uuid gid, variant and product gids, price, both attributes with 20-character ids, no selling
 * plan) is 438 bytes; rounded up for longer prices and quantities. Every line is counted so.
 */
export const INPUT_LINE_BYTES = 442;

/** One `inCollections` entry without its collection gid: `{"collectionId":"","isMember":false},`. */
export const INPUT_MEMBERSHIP_BYTES = 37;

/** One `hasTags` entry without its tag: `{"tag":"","hasTag":false},`. */
export const INPUT_TAG_BYTES = 26;

/** One rule's count in the customer's `redemptions` value, escaped: `\"rul_…\":1234,` (20-character id). */
export const INPUT_REDEMPTION_BYTES = 30;

/**
 * The rest: the input's keys and brackets, the buyer's id, the country, the currency rate and
 * the discount classes (314 bytes in `fullInput`), with room for longer values.
 */
export const INPUT_ENVELOPE_BYTES = 400;

/** The parts the estimate is computed from (`inputSizeParts` takes them from a build). */
export type InputSizeParts = {
  /** UTF-8 bytes of each configuration metafield's value (`config`, `config2`). */
  metafieldBytes: readonly number[];
  /** The customer tags asked (`vars.tags`). */
  tags: readonly string[];
  /** The collection gids asked of every line (`vars.collectionIds`). */
  collectionIds: readonly string[];
  /** Rules with `maxPerCustomer`, whose counts the customer's metafield can carry. */
  limitedRules: number;
};

export type InputSizeEstimate = { bytes: number; limit: number; lines: number; collections: number };

/** The 10th element of a compact rule is its `maxPerCustomer` (compact-config.ts). */
const isLimited = (rule: CompactRule | undefined): boolean => Array.isArray(rule) && typeof (rule as readonly unknown[])[9] === 'number';

/**
 * The parts of a built configuration: the metafields as written, its variables, its limited rules.
 *
 * @example estimateFunctionInput(inputSizeParts(build)).bytes
 */
export function inputSizeParts(build: Pick<CheckoutConfigBuild, 'metafields' | 'variables' | 'config'>): InputSizeParts {
  return {
    metafieldBytes: build.metafields.map((m) => m.bytes),
    tags: build.variables.tags,
    collectionIds: build.variables.collectionIds,
    limitedRules: compactRules(build.config).filter(isLimited).length,
  };
}

/**
 * The input's bytes at `lines` lines (200 by default), every line as large as a claimed gift
 * line and a member-or-not entry for each collection asked: an upper estimate for carts without
 * selling plans.
 *
 * @example estimateFunctionInput({ metafieldBytes: [9967, 9553], tags: [], collectionIds: [gid], limitedRules: 0 }).bytes // 123120 (a 37-character gid)
 */
export function estimateFunctionInput(parts: InputSizeParts, lines: number = FUNCTION_INPUT_LINES): InputSizeEstimate {
  const perLine = INPUT_LINE_BYTES + parts.collectionIds.reduce((sum, gid) => sum + INPUT_MEMBERSHIP_BYTES + utf8Length(gid), 0);
  const tags = parts.tags.reduce((sum, tag) => sum + INPUT_TAG_BYTES + utf8Length(tag), 0);
  const metafields = parts.metafieldBytes.reduce((sum, bytes) => sum + bytes, 0);
  const bytes = INPUT_ENVELOPE_BYTES + lines * perLine + metafields + tags + parts.limitedRules * INPUT_REDEMPTION_BYTES;
  return { bytes, limit: FUNCTION_INPUT_LIMIT_BYTES, lines, collections: parts.collectionIds.length };
}
