/**
 * The README's quick start as typed calls: `npm run openapi:check` type-checks this file
 * against the types openapi-typescript generates from the two served documents, so a change
 * to a route that breaks these calls (or the README that mirrors them) fails CI.
 * `test/openapi/quick-start.test.ts` also runs it against the app, so the calls are right, not only well typed.
 */
import createClient from 'openapi-fetch';
import type { paths as AdminPaths } from './generated/admin.d.ts';
import type { paths as PublicPaths } from './generated/public.d.ts';

/**
 * Runs the quick start against a service at `baseUrl` and returns what it saw.
 *
 * @example
 *   const seen = await quickStart('http://127.0.0.1:3000', process.env.ADMIN_TOKEN ?? '');
 */
export async function quickStart(baseUrl: string, adminToken: string, domain = 'demo.example.com') {
  const admin = createClient<AdminPaths>({ baseUrl, headers: { authorization: `Bearer ${adminToken}` } });

  // 1. The operator creates a shop on the Scale plan (the public API's plan) …
  const created = await admin.POST('/admin/v1/shops', { body: { domain, plan: 'scale' } });
  if (!created.data) throw new Error(`shop: ${created.error?.error}`);
  const shopId: string = created.data.shop.id;

  // 2. … and an API key for it: `key` is shown in this response only.
  const keyed = await admin.POST('/admin/v1/shops/{shopId}/api-keys', {
    params: { path: { shopId } },
    body: { name: 'quick start' },
  });
  if (!keyed.data) throw new Error(`api key: ${keyed.error?.error}`);
  const apiKey: string = keyed.data.key;

  // 3. The catalog the rules and the health check read: a mug to give away, in stock.
  const catalog = await admin.POST('/admin/v1/shops/{shopId}/catalog', {
    params: { path: { shopId } },
    body: {
      products: [
        {
          id: 'gid://shopify/Product/1',
          title: 'Mug',
          status: 'active',
          variants: [{ id: 'gid://shopify/ProductVariant/11', title: 'Default Title', inventoryQuantity: 100, inventoryPolicy: 'DENY' }],
        },
      ],
    },
  });
  if (catalog.error) throw new Error(`catalog: ${catalog.error.error} ${catalog.error.issue ?? ''}`);

  const api = createClient<PublicPaths>({ baseUrl, headers: { authorization: `Bearer ${apiKey}` } });

  // 4. Import a campaign: spend $50, get the mug.
  const imported = await api.POST('/api/v1/campaigns/import', {
    body: {
      campaigns: [
        {
          name: 'Spend $50, get a mug',
          rules: [
            {
              name: '$50 or more',
              conditionTree: { type: 'cart.subtotal_gte', value: 5000 },
              giftConfig: { type: 'fixed', gifts: [{ variantId: 'gid://shopify/ProductVariant/11', quantity: 1 }] },
            },
          ],
        },
      ],
    },
  });
  if (!imported.data) throw new Error(`import: ${imported.error?.error}`);
  const [campaignId] = imported.data.campaignIds;
  if (campaignId === undefined) throw new Error('import: no campaign id');

  // 5. Enable it. A failed health check is a 409 whose body lists the warnings.
  const enabled = await api.POST('/api/v1/campaigns/{id}/enable', { params: { path: { id: campaignId }, query: {} } });
  if (enabled.response.status === 409 && enabled.error && 'warnings' in enabled.error) {
    const kinds: string[] = enabled.error.warnings.map((warning) => warning.kind);
    throw new Error(`health warnings (${kinds.join(', ')}): ${enabled.error.message}; enable with force=1 to go live anyway`);
  }
  if (!enabled.data) throw new Error(`enable: ${enabled.error?.error}`);
  const live: true = enabled.data.campaign.enabled;

  // 6. What storefronts load: the rules payload, then 304 while it is unchanged.
  const rules = await api.GET('/api/v1/rules');
  if (!rules.data) throw new Error(`rules: ${rules.error?.error}`);
  const ruleNames: string[] = rules.data.rules.map((rule) => rule.name);
  const etag = rules.response.headers.get('ETag') ?? '';
  const again = await api.GET('/api/v1/rules', { params: { header: { 'If-None-Match': etag } } });
  const unchanged: boolean = again.response.status === 304;

  // 7. Evaluate a cart of two $30 shirts: the rule matches and the mug is added.
  const evaluated = await api.POST('/api/v1/evaluate', {
    body: {
      cart: {
        currency: 'USD',
        lines: [{ productId: 'gid://shopify/Product/2', variantId: 'gid://shopify/ProductVariant/21', quantity: 2, price: 3000 }],
      },
    },
  });
  if (!evaluated.data) throw new Error(`evaluate: ${evaluated.error?.error}`);
  const adds = evaluated.data.operations.filter((operation) => operation.type === 'add');

  // 8. The campaign's numbers for a date range, in the shop's time zone.
  const analytics = await api.GET('/api/v1/analytics', {
    params: { query: { from: '2026-01-01', to: '2026-01-31', campaignId } },
  });
  if (!analytics.data) throw new Error(`analytics: ${analytics.error?.error}`);

  return { shopId, campaignId, live, ruleNames, unchanged, adds, analytics: analytics.data };
}
