/**
 * Reading a database error: drizzle wraps the driver's error, so what the driver said is looked
 * for along the `cause` chain. PGlite and node-postgres both put the SQLSTATE in `code`.
 */

// A cause chain is short; the bound only guards against a cycle.
const MAX_CAUSE_DEPTH = 8;

/** `error` and its causes, outermost first. */
export function* causesOf(error: unknown): Generator<{ code?: unknown; message?: unknown }> {
  let current: unknown = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && current !== null && typeof current === 'object'; depth += 1) {
    yield current as { code?: unknown; message?: unknown };
    current = (current as { cause?: unknown }).cause;
  }
}

/**
 * The SQLSTATE of a database error anywhere along `error.cause`, or undefined.
 *
 * @example sqlStateOf(new Error('Failed query', { cause: { code: '22021' } })) // '22021'
 */
export function sqlStateOf(error: unknown): string | undefined {
  for (const { code } of causesOf(error)) {
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}
