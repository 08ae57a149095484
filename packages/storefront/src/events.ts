/**
 * Storefront events (SPEC "Ingest event"): the body POSTed to `{proxy}/events`.
 */
import type { StorefrontEvent, StorefrontEventType } from '@gcrs/engine';
import { toGid } from './ajax-cart.ts';

// The event's type is the engine's schema's, so the storefront cannot send a shape the server refuses.
export type { StorefrontEvent, StorefrontEventType };

/**
 * One event in SPEC's schema: the variant as a gid, the cart token only when the shop's
 * `shopSettings.data.collectCartTokens` allows it (and the cart has one).
 *
 * @example storefrontEvent('gift_added', { campaignId: 'cmp_1', ruleId: 'rul_1', variantId: '7' }, { cartToken: 'c1', collectCartTokens: false })
 * // { type: 'gift_added', campaignId: 'cmp_1', ruleId: 'rul_1', variantId: 'gid://shopify/ProductVariant/7' }
 */
export function storefrontEvent(
  type: StorefrontEventType,
  gift: { campaignId: string; ruleId: string; variantId: string | number },
  privacy: { cartToken?: string | undefined; collectCartTokens: boolean },
): StorefrontEvent {
  const event: StorefrontEvent = { type, campaignId: gift.campaignId, ruleId: gift.ruleId, variantId: toGid('ProductVariant', gift.variantId) };
  if (privacy.collectCartTokens && privacy.cartToken) event.cartToken = privacy.cartToken;
  return event;
}

/**
 * The body of `POST {proxy}/events` (SPEC: `{ events: [Ingest event] }`), with the visitor id of
 * the A/B assignment when given: the batch context's `visitorId`, which experiment results count
 * visitors by (docs/merchant-admin.md "Experiment results").
 */
export function eventsBody(events: readonly StorefrontEvent[], visitorId?: string): { events: StorefrontEvent[]; visitorId?: string } {
  return visitorId ? { events: [...events], visitorId } : { events: [...events] };
}
