/**
 * The pure parts of the platform webhooks: exact ids, exact money, and the HMAC check held
 * against the platform's official Node library (`@shopify/shopify-api`, `webhooks.validate`),
 * which the route does not call (docs/platform-webhooks.md "Why not the library at runtime").
 */
import '@shopify/shopify-api/adapters/node';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { ApiVersion, LogSeverity, shopifyApi } from '@shopify/shopify-api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signPlatformBody, verifyPlatformSignature } from '../../src/orders/platform-signature.ts';
import { decimalToMinorUnits } from '../../src/platform-webhooks/decimal.ts';
import { parseLosslessJson } from '../../src/platform-webhooks/lossless-json.ts';
import { platformOrderSchema } from '../../src/platform-webhooks/payloads.ts';
import { LARGE_ORDER_ID, SECRET, ordersPaidText } from './fixtures.ts';

describe('parseLosslessJson', () => {
  it('keeps integers beyond 2^53 as their digits and parses everything else as JSON.parse does', () => {
    expect(parseLosslessJson(`{"id":${LARGE_ORDER_ID},"n":3,"x":1.5,"big":1e300,"neg":-9007199254740993,"s":"9007199254740993"}`)).toEqual({
      id: LARGE_ORDER_ID,
      n: 3,
      x: 1.5,
      big: 1e300,
      neg: '-9007199254740993',
      s: '9007199254740993',
    });
    expect(String(JSON.parse(`{"id":${LARGE_ORDER_ID}}`).id)).not.toBe(LARGE_ORDER_ID);
  });

  it('round-trips every 64-bit id', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), (id) => {
        const parsed = parseLosslessJson(`{"id":${id}}`) as { id: string | number };
        expect(String(parsed.id)).toBe(String(id));
      }),
    );
  });
});

describe('decimalToMinorUnits', () => {
  it.each([
    ['19.99', 'USD', 1999],
    ['0.10', 'USD', 10],
    ['5', 'USD', 500],
    ['1000', 'JPY', 1000],
    ['1000.00', 'JPY', 1000],
    ['1.250', 'KWD', 1250],
    ['1.2', 'KWD', 1200],
    ['1.234', 'USD', undefined],
    ['1000.50', 'JPY', undefined],
    ['-1.00', 'USD', undefined],
    ['1e3', 'USD', undefined],
    ['', 'USD', undefined],
    ['99999999999999.99', 'USD', undefined],
  ] as const)('%s %s → %s', (amount, currency, expected) => {
    expect(decimalToMinorUnits(amount, currency)).toBe(expected);
  });

  it('is exact where a double is not: every cent amount comes back as its cents', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), (cents) => {
        const text = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
        expect(decimalToMinorUnits(text, 'USD')).toBe(cents);
      }),
    );
    // The float route the engine's checkout uses would say 1998.9999999999998 before rounding.
    expect(19.99 * 100).not.toBe(1999);
  });
});

describe('platformOrderSchema', () => {
  it('maps the platform order to CONTRACT\'s Order, each line\'s properties its attributes', () => {
    const order = platformOrderSchema.parse(
      parseLosslessJson(ordersPaidText({ lines: [{ properties: [{ name: 'gift', value: 'yes' }] }, {}] })),
    );
    expect(order).toMatchObject({ id: LARGE_ORDER_ID, customerId: '115310627314723950', currency: 'USD', total: 19900 });
    expect(order.lines.map((line) => line.attributes)).toEqual([{ gift: 'yes' }, {}]);
  });
});

describe('webhook HMAC: our check agrees with the platform library', () => {
  const shopify = shopifyApi({
    apiKey: 'test-key',
    apiSecretKey: SECRET,
    hostName: 'gifts.example.com',
    apiVersion: ApiVersion.January26,
    isEmbeddedApp: false,
    logger: { level: LogSeverity.Error, log: async () => undefined },
  });
  const libraryAccepts = async (raw: Buffer, signature: string): Promise<boolean> => {
    const rawRequest = new IncomingMessage(new Socket());
    rawRequest.method = 'POST';
    rawRequest.headers = {
      'x-shopify-hmac-sha256': signature,
      'x-shopify-topic': 'orders/paid',
      'x-shopify-shop-domain': 'a.myshopify.com',
      'x-shopify-api-version': '2026-01',
      'x-shopify-webhook-id': 'w1',
    };
    const result = await shopify.webhooks.validate({ rawBody: raw.toString('utf8'), rawRequest, rawResponse: new ServerResponse(rawRequest) });
    return result.valid;
  };

  it('on signed, re-signed, tampered and truncated UTF-8 bodies', async () => {
    const samples = await fc.sample(fc.json(), { numRuns: 60, seed: 11 });
    for (const [index, text] of samples.entries()) {
      const raw = Buffer.from(text, 'utf8');
      const good = signPlatformBody(raw, SECRET);
      const candidates = [good, signPlatformBody(raw, 'other-secret'), signPlatformBody(Buffer.concat([raw, Buffer.from(' ')]), SECRET), good.slice(0, 20)];
      for (const signature of candidates) {
        expect(verifyPlatformSignature(raw, signature, SECRET), `sample ${index}`).toBe(await libraryAccepts(raw, signature));
      }
    }
  });

  it('differs on bytes that are not UTF-8: the library checks the decoded text, we check the bytes', async () => {
    const sent = Buffer.from([0x7b, 0xff, 0x7d]);
    const bytesSignature = signPlatformBody(sent, SECRET);
    expect(verifyPlatformSignature(sent, bytesSignature, SECRET)).toBe(true);
    expect(await libraryAccepts(sent, bytesSignature)).toBe(false);
    // Two different byte strings that decode to the same text pass the library with one signature.
    const textSignature = signPlatformBody(sent.toString('utf8'), SECRET);
    const other = Buffer.from([0x7b, 0xfe, 0x7d]);
    expect(await libraryAccepts(other, textSignature)).toBe(true);
    expect(verifyPlatformSignature(other, textSignature, SECRET)).toBe(false);
  });
});
