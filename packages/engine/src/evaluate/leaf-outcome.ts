/**
 * A leaf's answer: whether it matched and one short reason code (SPEC: reasons are short
 * string codes outside any stability contract). Leaves return these shared frozen
 * constants, so evaluating a leaf allocates nothing.
 */
export type LeafOutcome = Readonly<{ matched: boolean; reason: string }>;
