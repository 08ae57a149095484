/**
 * When the progress bar's chunk (gifts-progress.js) may be fetched (issue 21 item 5: what loads
 * before any interaction is at most 10,000 B gzip). A bar the shopper cannot see yet is not worth
 * its bytes at load: with the theme's `[data-svc-gifts-progress]` block on the page (the app
 * block, usually in a closed cart drawer), the chunk comes when the block comes into the window or
 * at the first pointer or key press, whichever is first (a press is how a drawer opens, so the bar
 * is there as it slides in). Without the block, or with `announcement_bar`, the bar is at the top
 * of the window from the first paint: the chunk comes at once. `cart_page` off the cart page draws
 * nothing, so it never comes.
 */
import { isCartPage } from '../widgets/page-kind.ts';
import type { ProgressBarSettings } from '../widgets/settings.ts';

/**
 * Calls `open` when the bar can be seen (above), perhaps again later (at each press, each time the
 * block comes back into view: `open` must be idempotent, as a promise's `resolve` is); never for
 * `cart_page` off /cart. Nothing is removed after the first call: a listener that resolves a
 * settled promise costs nothing, and bytes here are first-load bytes.
 *
 * @example new Promise((open) => whenProgressVisible(settings.placement, open))
 */
export function whenProgressVisible(placement: ProgressBarSettings['placement'], open: () => void): void {
  if (placement === 'cart_page' && !isCartPage(location.pathname)) return;
  const block = placement !== 'announcement_bar' && document.querySelector('[data-svc-gifts-progress]');
  if (!block) return open();
  // "In the window" is 1 px inside it: a drawer parked just off the edge (translateX(100%), as
  // themes close theirs) touches the window's edge, and the spec counts an edge-adjacent target,
  // even the empty zero-height block, as intersecting. (Chromium did not for the stand-in's closed
  // drawer with no margin either: the margin is a guard, not the proven cause of a fetch.)
  new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && open(), { rootMargin: '-1px' }).observe(block);
  addEventListener('pointerdown', open, true);
  addEventListener('keydown', open, true);
}
