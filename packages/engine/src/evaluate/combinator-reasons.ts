/** Reason codes of the combinators, used in traces and for empty AND/OR (outcomes.ts re-exports this module as `COMBINATOR_REASON`). */
export const emptyChildren = 'empty_children';
export const allChildrenMatched = 'all_children_matched';
export const childNotMatched = 'child_not_matched';
export const childMatched = 'child_matched';
export const noChildMatched = 'no_child_matched';
export const inverted = 'child_inverted';
