/**
 * A fake of the platform's Admin GraphQL endpoint on a real local port, for PLATFORM_ADMIN_API_URL:
 * shops are told apart by their access token (`X-Shopify-Access-Token`). It answers the three
 * operations the discount port sends — find the gift discount, create it, set its metafields —
 * keeps the discounts it created, and answers 401 to a token in `revoked`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeRequest = { path: string; token: string; query: string; variables: Record<string, unknown> };

export type FakePlatform = {
  url: string;
  requests: FakeRequest[];
  /** Tokens answered with 401. */
  revoked: Set<string>;
  /** The discount id per token, once created. */
  discounts: Map<string, string>;
  close(): Promise<void>;
};

/** @example const platform = await startFakePlatform(); createTestApp({ PLATFORM_ADMIN_API_URL: platform.url }); */
export async function startFakePlatform(): Promise<FakePlatform> {
  const requests: FakeRequest[] = [];
  const revoked = new Set<string>();
  const discounts = new Map<string, string>();
  let next = 1;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const token = String(req.headers['x-shopify-access-token'] ?? '');
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { query?: string; variables?: Record<string, unknown> };
      const query = body.query ?? '';
      requests.push({ path: req.url ?? '', token, query, variables: body.variables ?? {} });
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      if (revoked.has(token) || token === '') return send(401, { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' });
      const existing = discounts.get(token);
      if (query.includes('automaticDiscountNodes')) return send(200, { data: { automaticDiscountNodes: { nodes: existing ? [{ id: existing }] : [] } } });
      if (query.includes('discountAutomaticAppCreate')) {
        const discountId = `gid://shopify/DiscountAutomaticNode/${next++}`;
        discounts.set(token, discountId);
        return send(200, { data: { discountAutomaticAppCreate: { automaticAppDiscount: { discountId }, userErrors: [] } } });
      }
      if (query.includes('metafieldsSet')) return send(200, { data: { metafieldsSet: { metafields: [{ id: '1' }, { id: '2' }], userErrors: [] } } });
      return send(400, { errors: 'unknown operation' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    revoked,
    discounts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
