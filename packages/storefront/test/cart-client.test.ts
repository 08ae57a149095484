import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addRequest } from '../src/index.ts';
import { createCartClient } from '../src/script/cart-client.ts';

// The network adapter of gifts.js with a scripted fetch: how many cart calls a refusal or a
// busy cart costs (CONTRACT: 422 never retried; 429/409 at most three retries).
function scriptedFetch(statuses: number[], headers: Record<string, string> = {}) {
  const calls: Array<{ url: string; init: RequestInit | undefined }> = [];
  const fetch = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(url), init });
    const status = statuses[Math.min(calls.length - 1, statuses.length - 1)] ?? 200;
    return new Response(status === 200 ? JSON.stringify({ items: [{ product_title: 'Tote' }] }) : '{}', { status, headers });
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

const gift = addRequest('gid://shopify/ProductVariant/9001', 1, { _svc_campaign_id: 'cmp_1', _svc_rule_id: 'r1' });

describe('cart client', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('posts the add as JSON to /cart/add.js with the same-origin cookies', async () => {
    const { fetch, calls } = scriptedFetch([200]);
    const outcome = await createCartClient(fetch, '/apps/gifts').send(gift);
    expect(outcome).toEqual({ kind: 'ok', body: { items: [{ product_title: 'Tote' }] } });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe('/cart/add.js');
    expect(calls[0]?.init).toMatchObject({ method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json' } });
    expect(JSON.parse(String(calls[0]?.init?.body))).toEqual(gift.body);
  });

  it('does not retry a 422 (sold out): one call, a refusal', async () => {
    const { fetch, calls } = scriptedFetch([422]);
    expect(await createCartClient(fetch, '/apps/gifts').send(gift)).toEqual({ kind: 'refused' });
    expect(calls).toHaveLength(1);
  });

  it('retries 429 and 409 with backoff, at most three times', async () => {
    const busy = scriptedFetch([429, 409, 429, 429, 200]);
    const sending = createCartClient(busy.fetch, '/apps/gifts').send(gift);
    await vi.runAllTimersAsync();
    expect(await sending).toEqual({ kind: 'failed', status: 429 });
    expect(busy.calls).toHaveLength(4);

    const recovering = scriptedFetch([429, 200], { 'Retry-After': '1' });
    const second = createCartClient(recovering.fetch, '/apps/gifts').send(gift);
    await vi.advanceTimersByTimeAsync(999);
    expect(recovering.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect((await second).kind).toBe('ok');
    expect(recovering.calls).toHaveLength(2);
  });

  it('does not retry other errors', async () => {
    const { fetch, calls } = scriptedFetch([500]);
    expect(await createCartClient(fetch, '/apps/gifts').send(gift)).toEqual({ kind: 'failed', status: 500 });
    expect(calls).toHaveLength(1);
  });

  it('reads rules from the proxy and posts events there in SPEC\'s body', async () => {
    const { fetch, calls } = scriptedFetch([200]);
    const client = createCartClient(fetch, '/apps/gifts');
    await client.getRules();
    client.sendEvents([{ type: 'gift_added', campaignId: 'cmp_1', ruleId: 'r1', variantId: 'gid://shopify/ProductVariant/9001' }]);
    client.sendEvents([]);
    await vi.runAllTimersAsync();
    expect(calls.map((call) => call.url)).toEqual(['/apps/gifts/rules', '/apps/gifts/events']);
    expect(JSON.parse(String(calls[1]?.init?.body))).toEqual({ events: [{ type: 'gift_added', campaignId: 'cmp_1', ruleId: 'r1', variantId: 'gid://shopify/ProductVariant/9001' }] });
    expect(calls[1]?.init?.keepalive).toBe(true);
  });

  it('sends the visitor id it was made with in each event batch', async () => {
    const { fetch, calls } = scriptedFetch([200]);
    createCartClient(fetch, '/apps/gifts', 'abc123').sendEvents([{ type: 'gift_added', campaignId: 'cmp_1', ruleId: 'r1', variantId: 'gid://shopify/ProductVariant/9001' }]);
    await vi.runAllTimersAsync();
    expect(JSON.parse(String(calls[0]?.init?.body))).toMatchObject({ visitorId: 'abc123' });
  });

  it('reads the signed customer\'s redemptions from the proxy as counts by rule; a failure or a bad body is undefined', async () => {
    const answering = (status: number, body: string) => vi.fn(async () => new Response(body, { status })) as unknown as typeof globalThis.fetch;
    const ok = answering(200, JSON.stringify({ redemptions: [{ ruleId: 'r1', campaignId: 'c', count: 2, lastRedeemedAt: '2026-01-01T00:00:00.000Z' }] }));
    expect(await createCartClient(ok, '/apps/gifts').getRedemptions()).toEqual({ r1: 2 });
    expect(vi.mocked(ok).mock.calls[0]?.[0]).toBe('/apps/gifts/redemptions');
    expect(await createCartClient(answering(200, JSON.stringify({ redemptions: [] })), '/apps/gifts').getRedemptions()).toEqual({});
    expect(await createCartClient(answering(500, '{}'), '/apps/gifts').getRedemptions()).toBeUndefined();
    expect(await createCartClient(answering(200, '{"nope":1}'), '/apps/gifts').getRedemptions()).toBeUndefined();
    expect(await createCartClient(answering(200, 'not json'), '/apps/gifts').getRedemptions()).toBeUndefined();
  });
});
