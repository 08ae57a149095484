/**
 * The network adapter: the platform's cart (`/cart.js`, `/cart/add.js`, `/cart/change.js`)
 * and the service's proxy (`rules`, `events`, `redemptions`). It uses the page's original `fetch`, taken
 * before the watcher wraps it, so the script's own cart calls never look like the page's.
 */
import type { AjaxCart } from '../ajax-cart.ts';
import type { CartRequest } from '../cart-actions.ts';
import type { StorefrontEvent } from '../events.ts';
import { eventsBody } from '../events.ts';
import { retryDecision } from '../retry.ts';

export type CartCallOutcome = { kind: 'ok'; body: unknown } | { kind: 'refused' } | { kind: 'failed'; status: number };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const JSON_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json' };

/** `visitorId`: the first-party cookie's id, sent with each event batch (experiment results count visitors by it). */
export function createCartClient(originalFetch: typeof fetch, proxy: string, visitorId?: string) {
  /** A GET of JSON with the same-origin cookies; an answer other than 2xx throws `GET <url> answered <status>`. */
  async function getJson(url: string, cache?: RequestCache): Promise<unknown> {
    const response = await originalFetch(url, { credentials: 'same-origin', headers: { Accept: 'application/json' }, cache });
    if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
    return response.json();
  }

  return {
    getCart: () => getJson('/cart.js', 'no-store') as Promise<AjaxCart>,

    /** One cart call, retried on 429/409 with backoff (at most 3 retries); 422 is a refusal. */
    async send(request: CartRequest): Promise<CartCallOutcome> {
      for (let attempt = 0; ; attempt++) {
        const response = await originalFetch(request.path, {
          method: 'POST',
          credentials: 'same-origin',
          headers: JSON_HEADERS,
          body: JSON.stringify(request.body),
        });
        const decision = retryDecision(response.status, attempt, response.headers.get('Retry-After'));
        if (decision.kind === 'ok') return { kind: 'ok', body: await response.json().catch(() => null) };
        if (decision.kind === 'refused') return { kind: 'refused' };
        if (decision.kind === 'failed') return { kind: 'failed', status: response.status };
        await sleep(decision.delayMs);
      }
    },

    /** The storefront payload, its rules' texts in `locale` (the page's: the platform's iso code, letters and hyphens, sent as is) where translated. */
    getRules: (locale?: string) => getJson(`${proxy}/rules${locale ? `?locale=${locale}` : ''}`),

    /**
     * The signed-in customer's redemption counts by rule id (the proxy signs who they are);
     * undefined when the call fails, so limited rules fail closed. Not from the HTTP cache: the
     * URL is the same for every customer of the browser (sign out, sign in as another within the
     * response's 30 s), and an order just placed must count on the next page.
     */
    async getRedemptions(): Promise<Record<string, number> | undefined> {
      try {
        const body = (await getJson(`${proxy}/redemptions`, 'no-store')) as { redemptions?: Array<{ ruleId: string; count: number }> };
        return Array.isArray(body.redemptions) ? Object.fromEntries(body.redemptions.map((item) => [item.ruleId, item.count])) : undefined;
      } catch {
        return undefined;
      }
    },

    sendEvents(events: readonly StorefrontEvent[]): void {
      if (events.length === 0) return;
      void originalFetch(`${proxy}/events`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: JSON_HEADERS,
        body: JSON.stringify(eventsBody(events, visitorId)),
        keepalive: true,
      }).catch(() => {});
    },
  };
}
export type CartClient = ReturnType<typeof createCartClient>;
