/**
 * Conditional GET (RFC 9110 §13.1.2): "If-None-Match … uses the weak comparison function",
 * so `W/"x"` matches `"x"`; the header may list several tags, and `*` matches any current
 * representation. A match answers 304 with no body.
 */

/**
 * Parses the entity-tags of an If-None-Match header; `'*'` stands for the wildcard.
 *
 * @example
 *   parseEntityTags('W/"a", "b"'); // ['"a"', '"b"']
 */
export function parseEntityTags(header: string): string[] {
  const tags: string[] = [];
  // An entity-tag is [W/]"<etagc>*"; commas inside quotes are not separators.
  const pattern = /\s*(\*|(?:W\/)?"[^"]*")\s*(?:,|$)/gy;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(header)) !== null) {
    const tag = match[1] ?? '';
    tags.push(tag.startsWith('W/') ? tag.slice(2) : tag);
    if (pattern.lastIndex >= header.length) break;
  }
  return tags;
}

/**
 * Whether a GET with this If-None-Match header should get 304 for the current `etag` (or
 * any of `etag`'s list: the tags of every representation of the current payload).
 *
 * @example
 *   ifNoneMatchHits('W/"v1", "v2"', '"v2"'); // true
 */
export function ifNoneMatchHits(header: string | string[] | undefined, etag: string | readonly string[]): boolean {
  if (header === undefined) return false;
  const current = typeof etag === 'string' ? [etag] : etag;
  // The common case, a client sending back the one tag it holds, needs no parsing.
  if (typeof header === 'string' && current.includes(header)) return true;
  const text = Array.isArray(header) ? header.join(', ') : header;
  if (text.trim() === '') return false;
  return parseEntityTags(text).some((tag) => tag === '*' || current.includes(tag));
}
