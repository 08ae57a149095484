/** The app-proxy signature (src/platform/signatures.ts), against CONTRACT "Storefront" 1. and the platform's documented example. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  APP_PROXY_MAX_SKEW_SECONDS,
  appProxyMessage,
  queryValues,
  signAppProxyQuery,
  signAppProxyValues,
  verifyAppProxyQuery,
} from '../../src/platform/signatures.ts';
import { hmacMatches, hmacSha256 } from '../../src/http/hmac.ts';

// The platform's own documented example (secret `hush`): pinned, so signer and verifier
// cannot drift together away from what the platform really sends.
const DOCUMENTED_QUERY =
  'extra=1&extra=2&shop=shop-name.myshopify.com&path_prefix=%2Fapps%2Fawesome_reviews&timestamp=1317327555' +
  '&signature=a9718877bea71c2484f91608a7eaea1532bdf71f5c56825065fa4ccabe549ef3';
const DOCUMENTED_NOW = 1317327555;

describe('app-proxy signature', () => {
  it('builds the message of the documented example: sorted names, `name=value`, repeated values joined by `,`, nothing between', () => {
    expect(appProxyMessage(queryValues(DOCUMENTED_QUERY))).toBe(
      'extra=1,2path_prefix=/apps/awesome_reviewsshop=shop-name.myshopify.comtimestamp=1317327555',
    );
    expect(signAppProxyValues(queryValues(DOCUMENTED_QUERY), 'hush')).toBe('a9718877bea71c2484f91608a7eaea1532bdf71f5c56825065fa4ccabe549ef3');
  });

  it('accepts the documented request, with its shop and no customer', () => {
    expect(verifyAppProxyQuery(DOCUMENTED_QUERY, 'hush', DOCUMENTED_NOW)).toEqual({
      valid: true,
      shop: 'shop-name.myshopify.com',
      customerId: undefined,
      timestamp: DOCUMENTED_NOW,
    });
  });

  it('sorts by name, not by the `name=value` text', () => {
    // '-' sorts before '=', so sorting the joined strings would put `a-b=` first.
    expect(appProxyMessage(queryValues('a-b=2&a=1'))).toBe('a=1a-b=2');
  });

  it('refuses a wrong secret, a changed or added parameter, and a reordered multi-value', () => {
    expect(verifyAppProxyQuery(DOCUMENTED_QUERY, 'hush!', DOCUMENTED_NOW)).toEqual({ valid: false, reason: 'bad_signature' });
    for (const changed of [
      DOCUMENTED_QUERY.replace('shop-name', 'other-shop'),
      `${DOCUMENTED_QUERY}&logged_in_customer_id=1`,
      DOCUMENTED_QUERY.replace('extra=1&extra=2', 'extra=2&extra=1'),
      DOCUMENTED_QUERY.replace('signature=a', 'signature=b'),
      DOCUMENTED_QUERY.replace(/signature=[0-9a-f]+/, 'signature=A9718877BEA71C2484F91608A7EAEA1532BDF71F5C56825065FA4CCABE549EF'),
    ]) {
      expect(verifyAppProxyQuery(changed, 'hush', DOCUMENTED_NOW).valid, changed).toBe(false);
    }
  });

  it('refuses a missing, empty, doubled or non-hex signature', () => {
    const unsigned = DOCUMENTED_QUERY.replace(/&signature=.*/, '');
    expect(verifyAppProxyQuery(unsigned, 'hush', DOCUMENTED_NOW)).toEqual({ valid: false, reason: 'missing_signature' });
    expect(verifyAppProxyQuery(`${DOCUMENTED_QUERY}&signature=00`, 'hush', DOCUMENTED_NOW)).toEqual({ valid: false, reason: 'missing_signature' });
    expect(verifyAppProxyQuery(`${unsigned}&signature=`, 'hush', DOCUMENTED_NOW).valid).toBe(false);
    expect(verifyAppProxyQuery(`${unsigned}&signature=zz`, 'hush', DOCUMENTED_NOW).valid).toBe(false);
  });

  it(`accepts a timestamp up to ${APP_PROXY_MAX_SKEW_SECONDS} s either way and refuses one further (stale or future)`, () => {
    for (const skew of [-APP_PROXY_MAX_SKEW_SECONDS, 0, APP_PROXY_MAX_SKEW_SECONDS]) {
      expect(verifyAppProxyQuery(DOCUMENTED_QUERY, 'hush', DOCUMENTED_NOW + skew).valid).toBe(true);
    }
    for (const skew of [-APP_PROXY_MAX_SKEW_SECONDS - 1, APP_PROXY_MAX_SKEW_SECONDS + 1, 86_400]) {
      expect(verifyAppProxyQuery(DOCUMENTED_QUERY, 'hush', DOCUMENTED_NOW + skew)).toEqual({ valid: false, reason: 'stale_timestamp' });
    }
  });

  it('refuses a signed query without a usable timestamp or shop', () => {
    const sign = (query: string) => `${query}&signature=${signAppProxyValues(queryValues(query), 's')}`;
    expect(verifyAppProxyQuery(sign('shop=a.example.com'), 's', 5)).toEqual({ valid: false, reason: 'bad_timestamp' });
    expect(verifyAppProxyQuery(sign('shop=a.example.com&timestamp=5.5'), 's', 5)).toEqual({ valid: false, reason: 'bad_timestamp' });
    expect(verifyAppProxyQuery(sign('timestamp=5'), 's', 5)).toEqual({ valid: false, reason: 'missing_shop' });
  });

  it('round-trips: whatever the shopper sends, the signed query verifies, with the customer it names', () => {
    const name = fc.string({ minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(fc.array(fc.tuple(name, fc.string({ maxLength: 12 })), { maxLength: 6 }), fc.option(fc.stringMatching(/^\d{1,12}$/)), (pairs, customer) => {
        const shopper = new URLSearchParams(pairs);
        const query = signAppProxyQuery(shopper, { shop: 'a.example.com', loggedInCustomerId: customer ?? '', timestamp: 1000 }, 'secret');
        const result = verifyAppProxyQuery(query, 'secret', 1000);
        expect(result).toEqual({ valid: true, shop: 'a.example.com', customerId: customer ?? undefined, timestamp: 1000 });
        // Any change to a signed value breaks it.
        expect(verifyAppProxyQuery(query.replace('shop=a.example.com', 'shop=b.example.com'), 'secret', 1000).valid).toBe(false);
      }),
    );
  });
});

describe('hmacMatches', () => {
  it('compares hex and base64 exactly, refusing malformed text and other types', () => {
    const mac = hmacSha256('k', 'm');
    expect(hmacMatches(mac.toString('hex'), mac, 'hex')).toBe(true);
    expect(hmacMatches(mac.toString('base64'), mac, 'base64')).toBe(true);
    expect(hmacMatches(mac.toString('base64url'), mac, 'base64url')).toBe(true);
    expect(hmacMatches(mac.toString('hex').slice(1), mac, 'hex')).toBe(false);
    expect(hmacMatches(`${mac.toString('base64')}!`, mac, 'base64')).toBe(false);
    expect(hmacMatches(undefined, mac, 'hex')).toBe(false);
    expect(hmacMatches(['x'], mac, 'hex')).toBe(false);
  });
});
