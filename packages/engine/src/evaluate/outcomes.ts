/**
 * A leaf's answer: whether it matched and one short reason code (SPEC: reasons are short
 * string codes outside any stability contract). Leaves return these shared frozen
 * constants, so evaluating a leaf allocates nothing.
 */
export type LeafOutcome = Readonly<{ matched: boolean; reason: string }>;

// One module each, re-exported as namespaces: `OUTCOME.x` and `COMBINATOR_REASON.x` keep their
// shape for every reader, and a bundler reads them as plain variables (no key names in the bundle).
export * as OUTCOME from './outcome-table.ts';
export * as COMBINATOR_REASON from './combinator-reasons.ts';
