/**
 * Re-evaluation after the page's own cart calls waits `shopSettings.engine.evaluationDelay`
 * ms after the last one (CONTRACT "Storefront"). Timers are passed in so tests can use fake ones.
 */

// Methods, not function properties: the global object's own timers are the default.
export type Timers = {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
};

/**
 * A trailing debounce: `schedule()` (re)starts the wait; `run` fires once, `delayMs()` after
 * the last call. `cancel()` drops a pending run.
 *
 * @example const d = createDebouncer(() => pass(), () => 300); d.schedule(); d.schedule(); // one pass, 300 ms after the second
 */
export function createDebouncer(run: () => void, delayMs: () => number, timers: Timers = globalThis) {
  let handle: unknown;
  let pending = false;
  return {
    schedule(): void {
      if (pending) timers.clearTimeout(handle);
      pending = true;
      handle = timers.setTimeout(() => {
        pending = false;
        run();
      }, Math.max(0, delayMs()));
    },
    cancel(): void {
      if (pending) timers.clearTimeout(handle);
      pending = false;
    },
    get pending(): boolean {
      return pending;
    },
  };
}

// `/cart/add`, `/cart/change`, `/cart/update`, `/cart/clear`, with `.js`/`.json` or not, under
// a locale prefix (`/fr/cart/add.js`) or not, with a query or not, relative or absolute.
const CART_MUTATION = /^(?:[a-z][a-z0-9+.-]*:\/\/[^/]+)?(?:\/[A-Za-z0-9_-]+)*\/cart\/(?:add|change|update|clear)(?:\.js|\.json)?(?:[?#].*)?$/;

/**
 * Whether a request URL is one of the page's cart changes the script watches.
 *
 * @example isCartMutationUrl('/cart/add.js') // true
 * @example isCartMutationUrl('/cart.js') // false
 */
export function isCartMutationUrl(url: string): boolean {
  return CART_MUTATION.test(url);
}
