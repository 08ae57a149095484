/** The ETag of a rules payload (SPEC `GET /rules`: ETag and 304), built by rules-cache.ts. */
import type { Trigger } from '../http/shop-routes.ts';
import type { Segment } from './schedule-window.ts';

/**
 * A strong validator naming exactly one body: shop, rules version, plan, the end of the
 * schedule segment in effect, the mount (debugAllowed differs) and the translation of the
 * rules a storefront page read, if any. The shop id keeps a client that switches keys from
 * getting another shop's 304.
 *
 * @example
 *   rulesEtag('shp_1', 7, 'scale', { from: 0, until: Infinity }, 'api'); // '"shp_1-v7-scale-open-api"'
 *   rulesEtag('shp_1', 7, 'scale', { from: 0, until: Infinity }, 'storefront', 'fr'); // '"shp_1-v7-scale-open-storefront-fr"'
 */
export function rulesEtag(shopId: string, version: number, plan: string, segment: Segment, mount: Trigger, translation?: string): string {
  const boundary = Number.isFinite(segment.until) ? String(segment.until) : 'open';
  return `"${shopId}-v${version}-${plan}-${boundary}-${mount}${translation === undefined ? '' : `-${translation}`}"`;
}
