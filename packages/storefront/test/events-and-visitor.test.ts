import { describe, expect, it } from 'vitest';
import { VISITOR_COOKIE, eventsBody, readCookie, storefrontEvent, visitorIdentity } from '../src/index.ts';

const gift = { campaignId: 'cmp_1', ruleId: 'rul_1', variantId: '9001' };

describe('storefront events (SPEC "Ingest event")', () => {
  it('has the four fields of the schema, the variant as a gid', () => {
    expect(storefrontEvent('gift_added', gift, { cartToken: 'tok', collectCartTokens: false })).toEqual({
      type: 'gift_added',
      campaignId: 'cmp_1',
      ruleId: 'rul_1',
      variantId: 'gid://shopify/ProductVariant/9001',
    });
  });

  it('carries the cart token only when shopSettings.data.collectCartTokens is true and there is one', () => {
    expect(storefrontEvent('gift_removed', gift, { cartToken: 'tok', collectCartTokens: true }).cartToken).toBe('tok');
    expect(storefrontEvent('gift_removed', gift, { cartToken: undefined, collectCartTokens: true })).not.toHaveProperty('cartToken');
    expect(storefrontEvent('choice_shown', gift, { cartToken: 'tok', collectCartTokens: false })).not.toHaveProperty('cartToken');
  });

  it('batches as { events: [...] }', () => {
    const events = [storefrontEvent('choice_shown', gift, { collectCartTokens: false }), storefrontEvent('choice_selected', gift, { collectCartTokens: false })];
    expect(eventsBody(events)).toEqual({ events });
  });

  it('adds the visitor id to the batch context when there is one (experiment results count visitors by it)', () => {
    const events = [storefrontEvent('gift_added', gift, { collectCartTokens: false })];
    expect(eventsBody(events, 'v'.repeat(32))).toEqual({ events, visitorId: 'v'.repeat(32) });
    expect(eventsBody(events, '')).toEqual({ events });
  });
});

describe('visitor id (sticky experiment assignment in a first-party cookie)', () => {
  const bytes = (fill: number) => (n: number) => new Uint8Array(n).fill(fill);

  it('keeps the id the cookie holds, so the assignment stays', () => {
    const { visitorId, cookie } = visitorIdentity(`a=1; ${VISITOR_COOKIE}=abcdef0123456789; b=2`, bytes(1), true);
    expect(visitorId).toBe('abcdef0123456789');
    expect(cookie).toBe(`${VISITOR_COOKIE}=abcdef0123456789; Path=/; Max-Age=31536000; SameSite=Lax; Secure`);
  });

  it('makes a new random id when there is none or it is malformed', () => {
    expect(visitorIdentity('', bytes(255), false)).toEqual({
      visitorId: 'ff'.repeat(16),
      cookie: `${VISITOR_COOKIE}=${'ff'.repeat(16)}; Path=/; Max-Age=31536000; SameSite=Lax`,
    });
    expect(visitorIdentity(`${VISITOR_COOKIE}=<script>`, bytes(0), false).visitorId).toBe('00'.repeat(16));
    expect(visitorIdentity(`${VISITOR_COOKIE}=%E0%A4%A`, bytes(0), false).visitorId).toBe('00'.repeat(16));
  });

  it('readCookie finds a cookie by exact name', () => {
    expect(readCookie('x_svc_vid=1; _svc_vid=2', '_svc_vid')).toBe('2');
    expect(readCookie('other=1', '_svc_vid')).toBeUndefined();
  });
});
