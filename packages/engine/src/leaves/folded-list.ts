/**
 * Trimmed, case-folded, non-empty entries of a list (or a comma-separated string, which
 * SPEC accepts for customer.tag_in): what the list leaves compare against.
 *
 * @example foldedList('VIP, wholesale', lower) // Set { 'vip', 'wholesale' }
 */
export function foldedList(value: unknown, fold: (text: string) => string): Set<string> {
  const items = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : [];
  const set = new Set<string>();
  for (const item of items) {
    if (typeof item !== 'string') continue;
    const folded = fold(item.trim());
    if (folded !== '') set.add(folded);
  }
  return set;
}

export const lower = (text: string) => text.toLowerCase();
export const upper = (text: string) => text.toUpperCase();
