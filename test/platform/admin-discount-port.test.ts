// The platform adapter of the discount port, against a fake of the platform's Admin GraphQL
// endpoint (the official client's own fetch hook): what it sends, and how it fails.
import { describe, expect, it } from 'vitest';
import { createAdminDiscountPort } from '../../src/platform/admin-discount-port.ts';
import { compactRules, joinCheckoutConfig } from '@gcrs/engine/checkout';
import { deepShopConfig } from '../support/checkout-deep-shop.ts';
import { hundredRuleConfig } from '../support/checkout-shop.ts';

type Sent = { url: string; query: string; variables: Record<string, unknown> };

function fakePlatform(answers: Array<Record<string, unknown>>) {
  const sent: Sent[] = [];
  const fetch = (async (url: string | URL | Request, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body)) as { query: string; variables: Record<string, unknown> };
    sent.push({ url: String(url), query: body.query, variables: body.variables });
    return new Response(JSON.stringify({ data: answers.shift() ?? {} }), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as typeof globalThis.fetch;
  return { sent, fetch };
}

const built = hundredRuleConfig();
const write = { config: built.config, variables: built.variables, bytes: built.bytes };
const credentials = () => Promise.resolve({ storeDomain: 'gifts-test.myshopify.com', accessToken: 'shpat_test' });

describe('createAdminDiscountPort', () => {
  it('creates the automatic app discount with both metafields when the shop has none', async () => {
    const platform = fakePlatform([
      { discountNodes: { nodes: [] } },
      { discountAutomaticAppCreate: { automaticAppDiscount: { discountId: 'gid://shopify/DiscountAutomaticNode/1' }, userErrors: [] } },
    ]);
    await createAdminDiscountPort({ credentials, functionId: 'fn-1', fetch: platform.fetch }).writeCheckoutConfig('shp_1', write);
    expect(platform.sent).toHaveLength(2);
    expect(platform.sent[0]?.url).toBe('https://gifts-test.myshopify.com/admin/api/2025-10/graphql.json');
    expect(platform.sent[1]?.query).toContain('discountAutomaticAppCreate');
    const discount = platform.sent[1]?.variables.discount as { functionId: string; discountClasses: string[]; metafields: Array<{ namespace: string; key: string; type: string; value: string }> };
    expect(discount.functionId).toBe('fn-1');
    expect(discount.discountClasses).toEqual(['PRODUCT']);
    expect(discount.metafields.map((m) => [m.namespace, m.key, m.type])).toEqual([
      ['$app:gifts', 'config', 'json'],
      ['$app:gifts', 'config2', 'json'],
      ['$app:gifts', 'vars', 'json'],
    ]);
    expect(JSON.parse(discount.metafields[0]?.value ?? '')).toEqual(built.config);
    // Everything fits `config`: `config2` is written empty.
    expect(discount.metafields[1]?.value).toBe('{}');
  });

  it('sets the metafields on the existing discount', async () => {
    const platform = fakePlatform([
      { discountNodes: { nodes: [{ id: 'gid://shopify/DiscountAutomaticNode/7' }] } },
      { metafieldsSet: { metafields: [{ id: '1' }, { id: '2' }], userErrors: [] } },
    ]);
    await createAdminDiscountPort({ credentials, functionId: 'fn-1', fetch: platform.fetch }).writeCheckoutConfig('shp_1', write);
    expect(platform.sent[1]?.query).toContain('metafieldsSet');
    const metafields = platform.sent[1]?.variables.metafields as Array<{ ownerId: string; key: string }>;
    expect(metafields.map((m) => [m.ownerId, m.key])).toEqual([
      ['gid://shopify/DiscountAutomaticNode/7', 'config'],
      ['gid://shopify/DiscountAutomaticNode/7', 'config2'],
      ['gid://shopify/DiscountAutomaticNode/7', 'vars'],
    ]);
  });

  it('spreads a configuration over one metafield into config and config2, and never writes one that does not fit', async () => {
    const platform = fakePlatform([
      { discountNodes: { nodes: [{ id: 'gid://shopify/DiscountAutomaticNode/7' }] } },
      { metafieldsSet: { metafields: [{ id: '1' }, { id: '2' }, { id: '3' }], userErrors: [] } },
    ]);
    const deep = deepShopConfig(100);
    const port = createAdminDiscountPort({ credentials, functionId: 'fn-1', fetch: platform.fetch });
    await port.writeCheckoutConfig('shp_1', { config: deep.config, variables: deep.variables, bytes: deep.bytes });
    const sent = platform.sent[1]?.variables.metafields as Array<{ key: string; value: string }>;
    expect(sent.map((m) => m.key)).toEqual(['config', 'config2', 'vars']);
    for (const m of sent) expect(Buffer.byteLength(m.value)).toBeLessThanOrEqual(10_000);
    // Joined back: the same header and the same rules, in order (config2's as `r2`).
    const joined = joinCheckoutConfig(JSON.parse(sent[0]?.value ?? ''), [JSON.parse(sent[1]?.value ?? '')]);
    expect({ ...joined, r: undefined, r2: undefined }).toEqual({ ...deep.config, r: undefined });
    expect(joined === undefined ? [] : compactRules(joined)).toEqual(compactRules(deep.config));

    const tooBig = deepShopConfig(130);
    const none = fakePlatform([]);
    const refusing = createAdminDiscountPort({ credentials, functionId: 'fn-1', fetch: none.fetch });
    await expect(refusing.writeCheckoutConfig('shp_1', { config: tooBig.config, variables: tooBig.variables, bytes: tooBig.bytes })).rejects.toThrow(/does not fit/);
    expect(none.sent).toHaveLength(0);
  });

  it('throws on user errors (the job is retried) and for a shop that is not connected', async () => {
    const platform = fakePlatform([
      { discountNodes: { nodes: [{ id: 'gid://shopify/DiscountAutomaticNode/7' }] } },
      { metafieldsSet: { metafields: [], userErrors: [{ field: ['metafields', '0', 'value'], message: 'Value is too big' }] } },
    ]);
    const port = createAdminDiscountPort({ credentials, functionId: 'fn-1', fetch: platform.fetch });
    await expect(port.writeCheckoutConfig('shp_1', write)).rejects.toThrow('Writing the configuration failed: Value is too big');
    const unconnected = createAdminDiscountPort({ credentials: () => Promise.resolve(undefined), functionId: 'fn-1' });
    await expect(unconnected.writeCheckoutConfig('shp_1', write)).rejects.toThrow('Shop is not connected to the platform');
  });
});
