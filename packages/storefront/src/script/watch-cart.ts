/**
 * Watches the page's own cart changes (CONTRACT "Storefront"): wraps `window.fetch` and
 * `XMLHttpRequest` so that a call to `/cart/add`, `/cart/change`, `/cart/update` or
 * `/cart/clear` calls `onChange(kind)` once it has completed. Returns the original `fetch`,
 * which the script's own calls use (so they never trigger a re-evaluation).
 */
import { isCartMutationUrl } from '../debounce.ts';

export type CartChangeKind = 'add' | 'other';

// A Request (or a polyfill's) by its `url`; a string or a URL as its text.
const urlOf = (input: RequestInfo | URL): string => (input as { url?: string }).url ?? String(input);
const kindOf = (url: string): CartChangeKind => (/\/cart\/add/.test(url) ? 'add' : 'other');

export function watchCartChanges(win: Window & typeof globalThis, onChange: (kind: CartChangeKind) => void): typeof fetch {
  const originalFetch = win.fetch.bind(win);
  win.fetch = function watchedFetch(input: RequestInfo | URL, init?: RequestInit) {
    const url = urlOf(input);
    const result = originalFetch(input, init);
    if (isCartMutationUrl(url)) {
      result.then(
        () => onChange(kindOf(url)),
        () => onChange(kindOf(url)),
      );
    }
    return result;
  };
  const open = win.XMLHttpRequest.prototype.open;
  win.XMLHttpRequest.prototype.open = function watchedOpen(this: XMLHttpRequest, method: string, url: string | URL, ...rest: unknown[]) {
    const text = String(url);
    if (isCartMutationUrl(text)) this.addEventListener('loadend', () => onChange(kindOf(text)));
    return (open as (...args: unknown[]) => void).call(this, method, url, ...rest);
  } as XMLHttpRequest['open'];
  return originalFetch;
}
