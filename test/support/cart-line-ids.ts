/**
 * Cart line ids in the platform's real shape, `gid://shopify/CartLine/<uuid>` (36 characters of
 * UUID): the function's input and output carry them, so instruction counts and output sizes
 * are measured with them rather than with short test ids. Deterministic per line index.
 */
import { createHash } from 'node:crypto';
import type { GiftFunctionLine } from '@gcrs/engine/checkout';

/** A UUID v4-shaped id derived from `seed`. */
export function uuidOf(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The same lines with ids `gid://shopify/CartLine/<uuid>`. */
export function withUuidLineIds(lines: GiftFunctionLine[]): GiftFunctionLine[] {
  return lines.map((line) => ({ ...line, id: `gid://shopify/CartLine/${uuidOf(line.id)}` }));
}
