/**
 * The app with a real webhook receiver and an outbox dispatcher the test runs by hand, so a
 * lifecycle test can see exactly which webhooks and discount syncs a request caused.
 */
import { and, eq } from 'drizzle-orm';
import { discountSyncs, outbox, shops } from '../../src/db/schema.ts';
import { createOutboxDispatcher } from '../../src/outbox/dispatcher.ts';
import { createPlatformJobs } from '../../src/platform-jobs.ts';
import type { OutboxDispatcher } from '../../src/outbox/dispatcher.ts';
import { createRecordingDiscountPort } from '../../src/platform/discount-port.ts';
import { campaign } from '../campaigns/fixtures.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { LOOPBACK_RECEIVERS, startReceiver } from '../webhooks/receiver.ts';
import type { Receiver } from '../webhooks/receiver.ts';
import { createWebhookSender } from '../../src/webhooks/sender.ts';

export const variantGid = (n: number) => `gid://shopify/ProductVariant/${n}`;
export const productGid = (n: number) => `gid://shopify/Product/${n}`;

/** Product n with variant n (the fixtures' gift is variant 1), well stocked and active. */
export const product = (n: number, extra: Record<string, unknown> = {}, variant: Record<string, unknown> = {}) => ({
  id: productGid(n),
  title: `Product ${n}`,
  status: 'active',
  variants: [{ id: variantGid(n), title: 'Default Title', inventoryQuantity: 100, inventoryPolicy: 'DENY', ...variant }],
  ...extra,
});

export type Harness = {
  t: TestApp;
  receiver: Receiver;
  dispatcher: OutboxDispatcher;
  /** A scale shop with a webhook endpoint at `/<shopId>` and product 1 in its catalog. */
  newShop(plan?: 'free' | 'growth' | 'pro' | 'scale'): Promise<TestShop>;
  /** Imports one campaign and returns its id. */
  createCampaign(shop: TestShop, extra?: Record<string, unknown>): Promise<string>;
  /** Runs the dispatcher until nothing is due; returns the webhooks the shop's endpoint got. */
  drain(shop: TestShop): Promise<Array<{ type: string; data: Record<string, unknown> }>>;
  /** What the discount port recorded for the shop, by campaign id. */
  discountState(shop: TestShop): Promise<Record<string, boolean>>;
  /** Outbox rows (webhooks and jobs) the shop has, for "nothing was queued" checks. */
  outboxCount(shop: TestShop): Promise<number>;
  rulesVersion(shop: TestShop): Promise<number>;
  close(): Promise<void>;
};

export async function createHarness(): Promise<Harness> {
  const t = await createTestApp({ WEBHOOK_ALLOWED_HOSTS: LOOPBACK_RECEIVERS });
  const receiver = await startReceiver();
  const dispatcher = createOutboxDispatcher({
    db: t.ctx.db,
    logger: t.ctx.logger,
    jobs: createPlatformJobs({ db: t.ctx.db, logger: t.ctx.logger, discountPort: createRecordingDiscountPort(t.ctx.db) }),
    webhooks: createWebhookSender({ allowList: t.config.webhookAllowList }),
    pollMs: 1000,
  });
  const seen = new Map<string, number>();
  return {
    t,
    receiver,
    dispatcher,
    async newShop(plan = 'scale') {
      const shop = await t.createShop(plan);
      const endpoint = await t.admin({
        method: 'POST',
        url: `/admin/v1/shops/${shop.id}/webhook-endpoints`,
        payload: { url: `${receiver.url}/${shop.id}` },
      });
      if (endpoint.statusCode !== 201) throw new Error(endpoint.body);
      const catalog = await t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/catalog`, payload: { products: [product(1)] } });
      if (catalog.statusCode !== 200) throw new Error(catalog.body);
      return shop;
    },
    async createCampaign(shop, extra = {}) {
      const res = await t.admin({
        method: 'POST',
        url: `/admin/v1/shops/${shop.id}/campaigns/import`,
        payload: { campaigns: [campaign('Promo', extra)] },
      });
      if (res.statusCode !== 200) throw new Error(res.body);
      const id = (res.json() as { campaignIds: string[] }).campaignIds[0];
      if (id === undefined) throw new Error('no campaign id');
      return id;
    },
    async drain(shop) {
      while ((await dispatcher.runOnce()).claimed > 0);
      const all = receiver.eventsAt(`/${shop.id}`);
      const from = seen.get(shop.id) ?? 0;
      seen.set(shop.id, all.length);
      return all.slice(from).map(({ type, data }) => ({ type, data }));
    },
    async discountState(shop) {
      const rows = await t.ctx.db.select().from(discountSyncs).where(eq(discountSyncs.shopId, shop.id));
      return Object.fromEntries(rows.map((row) => [row.campaignId, row.active]));
    },
    async outboxCount(shop) {
      return (await t.ctx.db.select({ id: outbox.id }).from(outbox).where(and(eq(outbox.shopId, shop.id)))).length;
    },
    async rulesVersion(shop) {
      const [row] = await t.ctx.db.select({ v: shops.rulesVersion }).from(shops).where(eq(shops.id, shop.id));
      return row?.v ?? 0;
    },
    async close() {
      await receiver.close();
      await t.close();
    },
  };
}

/** The harness with one shop of its own. */
export async function createHarnessWithShop(): Promise<{ h: Harness; shop: TestShop }> {
  const h = await createHarness();
  return { h, shop: await h.newShop() };
}

/**
 * Steps on one shop of the harness (both opened in a beforeAll, hence the getters): its public
 * API, a campaign as read back, and the campaign.activated event a receiver gets.
 */
export function shopSteps(harness: () => Harness, current: () => TestShop) {
  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    harness().t.api(current(), { method, url: `/api/v1${url}`, ...(payload === undefined ? {} : { payload }) });

  async function read(id: string) {
    const res = await api('GET', `/campaigns/${id}`);
    return (res.json() as { campaign: Record<string, unknown> & { enabled: boolean; isDraft: boolean } }).campaign;
  }

  const activated = (id: string, trigger: 'api' | 'admin', name = 'Promo') => ({
    type: 'campaign.activated',
    data: { shopId: current().id, campaignId: id, name, enabled: true, isDraft: false, trigger },
  });
  return { api, read, activated };
}
