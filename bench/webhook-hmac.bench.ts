/**
 * `npm run bench:webhook-hmac`: the platform webhook's HMAC check as the route does it
 * (`hmacMatches(header, hmacSha256(secret, raw), 'base64')`, node:crypto) beside the platform
 * library's `shopify.webhooks.validate({ rawBody, rawRequest })` (node adapter) on the same
 * signed bodies, in alternating rounds. Prints µs per check and the ratio library / ours for a
 * small (~1 KB) and a large (~13 KB) orders/paid-like body. docs/platform-webhooks.md cites it.
 *
 * BENCH_ROUNDS (default 3), BENCH_CHECKS (per round and side, default 3000).
 */
import '@shopify/shopify-api/adapters/node';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { ApiVersion, LogSeverity, shopifyApi } from '@shopify/shopify-api';
import { hmacMatches, hmacSha256 } from '../src/http/hmac.ts';

const SECRET = 'bench-platform-app-secret';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CHECKS = Number(process.env.BENCH_CHECKS ?? 3000);

const shopify = shopifyApi({
  apiKey: 'bench-key',
  apiSecretKey: SECRET,
  hostName: 'gifts.example.com',
  apiVersion: ApiVersion.January26,
  isEmbeddedApp: false,
  logger: { level: LogSeverity.Error, log: async () => undefined },
});

function requestWith(signature: string): IncomingMessage {
  const request = new IncomingMessage(new Socket());
  request.method = 'POST';
  request.headers = {
    'x-shopify-hmac-sha256': signature,
    'x-shopify-topic': 'orders/paid',
    'x-shopify-shop-domain': 'bench.myshopify.com',
    'x-shopify-api-version': '2026-01',
    'x-shopify-webhook-id': 'bench',
  };
  return request;
}

const bodyOf = (lines: number): Buffer =>
  Buffer.from(
    JSON.stringify({
      id: 1,
      currency: 'USD',
      total_price: '10.00',
      line_items: Array.from({ length: lines }, (_, i) => ({ variant_id: i, product_id: i, quantity: 1, price: '10.00', title: 'x'.repeat(40) })),
    }),
  );

async function timeOurs(raw: Buffer, signature: string): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < CHECKS; i += 1) {
    const request = requestWith(signature);
    if (!hmacMatches(request.headers['x-shopify-hmac-sha256'], hmacSha256(SECRET, raw), 'base64')) throw new Error('ours refused');
  }
  return ((performance.now() - start) * 1000) / CHECKS;
}

async function timeLibrary(raw: Buffer, signature: string): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < CHECKS; i += 1) {
    const rawRequest = requestWith(signature);
    const result = await shopify.webhooks.validate({ rawBody: raw.toString('utf8'), rawRequest, rawResponse: new ServerResponse(rawRequest) });
    if (!result.valid) throw new Error('library refused');
  }
  return ((performance.now() - start) * 1000) / CHECKS;
}

for (const lines of [10, 140]) {
  const raw = bodyOf(lines);
  const signature = hmacSha256(SECRET, raw).toString('base64');
  for (let round = 1; round <= ROUNDS; round += 1) {
    const ours = await timeOurs(raw, signature);
    const library = await timeLibrary(raw, signature);
    console.log(
      `body ${raw.length} B, round ${round}: library ${library.toFixed(1)} µs/check, ours ${ours.toFixed(1)} µs/check, ratio ${(library / ours).toFixed(1)}`,
    );
  }
}
