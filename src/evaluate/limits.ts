/**
 * The bounds of one evaluation (issue 9 item 2: a 607 KB request had answered 13.5 MB and
 * stalled the event loop). Each caps one of the three things a request's cost grows with:
 * the bytes parsed, the lines the engine prepares, and the trace nodes built and written.
 * docs/evaluation.md "Limits" explains the values.
 */

/** Request body of POST /evaluate and /simulate: a 500-line cart with the collection map fits several times. */
export const EVALUATE_BODY_LIMIT_BYTES = 512 * 1024;

/** Cart lines per context; a platform cart holds at most 500 lines. */
export const MAX_CART_LINES = 500;

/**
 * Trace nodes per response (about 100 bytes of JSON each, so about 1 MB). Rules are traced in
 * payload order while their whole tree fits; a rule that does not fit answers its root only,
 * `truncated: true`. Every other part of a response is bounded by the lines and the shop's rules.
 */
export const MAX_TRACE_NODES = 10_000;
