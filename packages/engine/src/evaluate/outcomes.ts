/**
 * What leaves and combinators answer: the outcome type, the leaves' outcomes (`OUTCOME`) and the
 * combinators' reasons (`COMBINATOR_REASON`).
 */
// The type has a module of its own: outcome-table.ts needs it and must not import this one back.
export type { LeafOutcome } from './leaf-outcome.ts';

// One module each, re-exported as namespaces: `OUTCOME.x` and `COMBINATOR_REASON.x` keep their
// shape for every reader, and a bundler reads them as plain variables (no key names in the bundle).
export * as OUTCOME from './outcome-table.ts';
export * as COMBINATOR_REASON from './combinator-reasons.ts';
