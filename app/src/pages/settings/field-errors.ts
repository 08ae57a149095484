/** A 400's `path` as the dotted key of the field it names, and the text to show there. */
export type FieldError = { field: string | undefined; text: string };

/**
 * @example
 *   fieldErrorOf({ error: 'Invalid body', issue: 'Too big', path: ['settings', 'lowStockThreshold'] }, 'x');
 *   // { field: 'settings.lowStockThreshold', text: 'Too big' }
 */
export function fieldErrorOf(error: unknown, fallback: string): FieldError {
  if (typeof error !== 'object' || error === null) return { field: undefined, text: fallback };
  const path = 'path' in error && Array.isArray(error.path) && error.path.length > 0 ? error.path.join('.') : undefined;
  const issue = 'issue' in error && typeof error.issue === 'string' ? error.issue : undefined;
  const message = 'error' in error && typeof error.error === 'string' ? error.error : undefined;
  return { field: path, text: issue ?? message ?? fallback };
}
