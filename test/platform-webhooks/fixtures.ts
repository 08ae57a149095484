/** The platform's webhooks as it sends them: headers, signature over the raw bytes, payload shapes. */
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { signPlatformBody } from '../../src/orders/platform-signature.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

export const SECRET = 'platform-app-secret-for-webhook-tests';
export const URL = '/webhooks/platform';

/** An order id beyond 2^53: JSON.parse alone would round it to another order. */
export const LARGE_ORDER_ID = '820982911946154508';

export type DeliveryOptions = { topic: string; domain: string; webhookId?: string; secret?: string; headers?: Record<string, string> };

/**
 * POSTs `body` (an object, or raw JSON text sent byte for byte) as the platform does.
 * Returns the response; the webhook id defaults to a fresh one.
 */
export function deliver(t: TestApp, body: unknown, options: DeliveryOptions): Promise<LightMyRequestResponse> {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  return t.app.inject({
    method: 'POST',
    url: URL,
    payload: raw,
    headers: {
      'content-type': 'application/json',
      'x-shopify-hmac-sha256': signPlatformBody(raw, options.secret ?? SECRET),
      'x-shopify-shop-domain': options.domain,
      'x-shopify-topic': options.topic,
      'x-shopify-webhook-id': options.webhookId ?? randomUUID(),
      'x-shopify-api-version': '2026-01',
      'x-shopify-triggered-at': new Date().toISOString(),
      'x-shopify-event-id': randomUUID(),
      ...options.headers,
    },
  });
}

/** The shop's domain, as the platform names it in X-Shopify-Shop-Domain. */
export async function domainOf(t: TestApp, shopId: string): Promise<string> {
  const res = await t.admin({ method: 'GET', url: `/admin/v1/shops/${shopId}` });
  return (res.json() as { shop: { domain: string } }).shop.domain;
}

export type PlatformShops = { shop: TestShop; other: TestShop; domain: string; otherDomain: string };

/** Two shops and their domains: the one deliveries act on, and another that must stay untouched. */
export async function twoShops(t: TestApp): Promise<PlatformShops> {
  const [shop, other] = await Promise.all([t.createShop('scale'), t.createShop('scale')]);
  const [domain, otherDomain] = await Promise.all([domainOf(t, shop.id), domainOf(t, other.id)]);
  return { shop, other, domain, otherDomain };
}

/** The app that knows the platform's secret, with twoShops. */
export async function openPlatformApp(): Promise<PlatformShops & { t: TestApp }> {
  const t = await createTestApp({ PLATFORM_APP_SECRET: SECRET });
  return { t, ...(await twoShops(t)) };
}

type Line = { variantId?: number | null; productId?: number | null; quantity?: number; price?: string; properties?: Array<{ name: string; value: string }> };

/**
 * An `orders/paid` payload in the platform's REST shape, as JSON TEXT: `id` is written as a bare
 * integer (beyond 2^53 by default), exactly as the platform writes it.
 */
export function ordersPaidText(input: {
  id?: string;
  customerId?: number | null;
  currency?: string;
  totalPrice?: string;
  processedAt?: string;
  lines?: Line[];
}): string {
  const lineItems = (input.lines ?? [{}]).map((line, index) => ({
    id: 466157049 + index,
    variant_id: line.variantId === undefined ? 39072856 + index : line.variantId,
    product_id: line.productId === undefined ? 632910392 + index : line.productId,
    title: 'IPod Nano - 8gb',
    quantity: line.quantity ?? 1,
    price: line.price ?? '199.00',
    sku: 'IPOD2008GREEN',
    properties: line.properties ?? [],
    total_discount: '0.00',
  }));
  const payload = {
    id: 0,
    admin_graphql_api_id: `gid://shopify/Order/${input.id ?? LARGE_ORDER_ID}`,
    name: '#9999',
    email: 'jon@example.com',
    created_at: '2026-01-15T07:00:00-05:00',
    processed_at: input.processedAt ?? '2026-01-15T07:00:00-05:00',
    currency: input.currency ?? 'USD',
    presentment_currency: input.currency ?? 'USD',
    financial_status: 'paid',
    total_price: input.totalPrice ?? '199.00',
    subtotal_price: input.totalPrice ?? '199.00',
    customer: input.customerId === null ? null : { id: input.customerId ?? 115310627314723950, email: 'john@example.com' },
    line_items: lineItems,
  };
  // The platform writes 64-bit ids as bare numbers; JSON.stringify cannot, so splice the digits in.
  return JSON.stringify(payload).replace('"id":0', `"id":${input.id ?? LARGE_ORDER_ID}`);
}

/** A products/create or products/update payload; variants default to one tracked, in-stock variant. */
export function productPayload(input: {
  id: number;
  title?: string;
  status?: string;
  variants?: Array<{ id: number; quantity?: number; policy?: string; inventoryItemId?: number; tracked?: boolean; title?: string; price?: string | null }>;
  /** The REST payload's image fields, as given (`image`, `images`, `featured_image`). */
  images?: Record<string, unknown>;
}) {
  return {
    id: input.id,
    title: input.title ?? `Product ${input.id}`,
    status: input.status ?? 'active',
    ...input.images,
    admin_graphql_api_id: `gid://shopify/Product/${input.id}`,
    variants: (input.variants ?? [{ id: input.id * 10 }]).map((variant) => ({
      id: variant.id,
      product_id: input.id,
      title: variant.title ?? 'Default Title',
      price: variant.price === undefined ? '10.00' : variant.price,
      inventory_policy: variant.policy ?? 'deny',
      inventory_management: variant.tracked === false ? null : 'shopify',
      inventory_quantity: variant.quantity ?? 5,
      inventory_item_id: variant.inventoryItemId ?? variant.id + 1_000_000,
      admin_graphql_api_id: `gid://shopify/ProductVariant/${variant.id}`,
    })),
  };
}
