/**
 * The stand-in platform's webhook headers: what the platform sends with every webhook
 * (`X-Shopify-Topic`, `-Hmac-Sha256` — base64 HMAC-SHA256 of the raw body with the app's
 * secret — `-Shop-Domain`, `-Webhook-Id`, `-Api-Version`, `-Triggered-At`, `-Event-Id`).
 */
import { createHmac, randomUUID } from 'node:crypto';

export const WEBHOOK_API_VERSION = '2025-10';

/** @example await fetch(`${service}/webhooks/platform`, { method: 'POST', headers: webhookHeaders(secret, 'orders/paid', domain, body), body }); */
export function webhookHeaders(secret: string, topic: string, shopDomain: string, body: string, now: Date = new Date()): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-shopify-topic': topic,
    'x-shopify-hmac-sha256': createHmac('sha256', secret).update(body, 'utf8').digest('base64'),
    'x-shopify-shop-domain': shopDomain,
    'x-shopify-webhook-id': randomUUID(),
    'x-shopify-api-version': WEBHOOK_API_VERSION,
    'x-shopify-triggered-at': now.toISOString(),
    'x-shopify-event-id': randomUUID(),
  };
}
