/**
 * The stand-in checkout of `npm run dev:local` without a browser (dev/local/checkout.ts): the
 * function's input built from a stand-in cart and the discount's metafields on the stand-in
 * platform, the built module run in QuickJS, its discount applied, and `orders/paid` sent with
 * the platform's signature; refusals (no discount yet, empty cart) send nothing; the
 * storefront's `/checkout` route (404 without a checkout, the cart emptied after an order).
 */
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildCheckoutConfig } from '@gcrs/engine/checkout';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOut } from '../../dev/local/checkout.ts';
import type { CheckoutDeps } from '../../dev/local/checkout.ts';
import { startPlatformStandin } from '../../dev/platform/platform.ts';
import type { PlatformStandin } from '../../dev/platform/platform.ts';
import { CartStore } from '../../dev/storefront/cart.ts';
import { DEMO_FIXTURE, gid } from '../../dev/storefront/fixture.ts';
import { startStorefrontStandin } from '../../dev/storefront/server.ts';
import { buildFunction } from '../../scripts/build-function.ts';
import { loadFunctionInQuickJs } from '../../dev/checkout/quickjs-function.ts';
import type { QuickJsFunction } from '../../dev/checkout/quickjs-function.ts';

const SECRET = 'dev-local-checkout-secret';
const DOMAIN = DEMO_FIXTURE.shopDomain;
const GIFT = { campaign: 'cmp_0000000000000001', rule: 'rul_0000000000000001' };

describe('the stand-in checkout of dev:local', () => {
  let platform: PlatformStandin;
  let service: Server;
  let fn: QuickJsFunction;
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  let deps: CheckoutDeps;

  beforeAll(async () => {
    fn = await loadFunctionInQuickJs((await buildFunction({ write: false })).code);
    platform = await startPlatformStandin({ appKey: 'key', appSecret: SECRET });
    platform.addShop({ domain: DOMAIN });
    // The service's side: records what reaches /webhooks/platform.
    service = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(200).end('{}');
      });
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    deps = { fixture: DEMO_FIXTURE, platform, serviceUrl: `http://127.0.0.1:${(service.address() as AddressInfo).port}`, appSecret: SECRET, fn };
  }, 60_000);
  afterAll(async () => {
    fn?.dispose();
    await platform?.close();
    await new Promise((resolve) => service?.close(resolve));
  });

  const carts = new CartStore(DEMO_FIXTURE);
  const cartOf = (lines: Array<{ id: number; quantity: number; properties?: Record<string, string> }>) => {
    const cart = carts.cartFor(undefined);
    const added = carts.add(cart, lines.map((line) => ({ id: line.id, quantity: line.quantity, properties: line.properties ?? {}, sellingPlanId: null })));
    if (!added.ok) throw new Error(added.error.description);
    return carts.cartJson(cart);
  };
  const giftProperties = (rule = GIFT.rule) => ({ _svc_campaign_id: GIFT.campaign, _svc_rule_id: rule, _svc_auto: 'true' });

  it('refuses before the install made the discount, and for an empty cart, sending nothing', async () => {
    expect(await checkOut(deps, cartOf([{ id: 10011, quantity: 2 }]), null)).toMatchObject({ completed: false, reason: expect.stringContaining('no automatic app discount') });
    expect(await checkOut(deps, cartOf([]), null)).toEqual({ completed: false, reason: 'The cart is empty.' });
    expect(received).toEqual([]);
  });

  it('discounts the honest gift line only, and sends orders/paid signed as the platform signs it', async () => {
    const built = buildCheckoutConfig({
      baseCurrency: 'USD',
      rules: [
        {
          id: GIFT.rule,
          campaignId: GIFT.campaign,
          enabled: true,
          conditionTree: { type: 'cart.subtotal_gte', value: 5000 },
          giftConfig: { type: 'fixed', gifts: [{ variantId: gid('ProductVariant', 20011), quantity: 1 }] },
          options: { actionType: 'auto_add', discountMethod: 'automatic', discountType: 'percentage', discountValue: 100, discountTitle: 'Free gift' },
        },
      ],
    } as never);
    const discountId = 'gid://shopify/DiscountAutomaticNode/1';
    platform.discounts.discounts.set(DOMAIN, [{ id: discountId, title: 'Gifts', functionId: 'fn', startsAt: '', discountClasses: ['PRODUCT'] }]);
    platform.discounts.metafields.set(DOMAIN, new Map([[`${discountId} $app:gifts.config`, JSON.stringify(built.config)], [`${discountId} $app:gifts.vars`, JSON.stringify(built.variables)]]));

    const outcome = await checkOut(deps, cartOf([{ id: 20011, quantity: 1, properties: giftProperties() }, { id: 10011, quantity: 2 }]), null);
    if (!outcome.completed) throw new Error(outcome.reason);
    // Lines newest first: the tees are line 1, the mug line 2.
    const targets = outcome.output.operations.flatMap((op) => op.productDiscountsAdd.candidates.flatMap((c) => c.targets));
    expect(targets).toEqual([{ cartLine: { id: 'gid://shopify/CartLine/2', quantity: 1 } }]);
    expect({ discount: outcome.discountCents, total: outcome.totalCents, status: outcome.webhookStatus }).toEqual({ discount: 1200, total: 6000, status: 200 });

    const delivery = received.at(-1);
    if (!delivery) throw new Error('nothing sent');
    expect(delivery.headers['x-shopify-topic']).toBe('orders/paid');
    expect(delivery.headers['x-shopify-shop-domain']).toBe(DOMAIN);
    expect(delivery.headers['x-shopify-hmac-sha256']).toBe(createHmac('sha256', SECRET).update(delivery.body).digest('base64'));
    const order = JSON.parse(delivery.body) as { total_price: string; line_items: Array<{ variant_id: number; price: string; total_discount: string; properties: unknown[] }> };
    expect(order.total_price).toBe('60.00');
    expect(order.line_items.map((line) => [line.variant_id, line.price, line.total_discount])).toEqual([[10011, '30.00', '0.00'], [20011, '12.00', '12.00']]);
    expect(order.line_items[1]?.properties).toContainEqual({ name: '_svc_rule_id', value: GIFT.rule });

    // A forged claim (another rule) and a cart under the threshold get no discount.
    const forged = await checkOut(deps, cartOf([{ id: 20011, quantity: 1, properties: giftProperties('rul_9999999999999999') }, { id: 10011, quantity: 2 }]), null);
    const below = await checkOut(deps, cartOf([{ id: 20011, quantity: 1, properties: giftProperties() }, { id: 10011, quantity: 1 }]), null);
    expect([forged, below].map((o) => (o.completed ? o.discountCents : 'refused'))).toEqual([0, 0]);
  });

  it('the storefront has no /checkout without one, and a placed order empties the cart', async () => {
    const plain = await startStorefrontStandin({ serviceUrl: deps.serviceUrl, appSecret: SECRET });
    const withCheckout = await startStorefrontStandin({ serviceUrl: deps.serviceUrl, appSecret: SECRET, checkout: async (cart) => ({ completed: cart.items.length > 0, html: `<p>${cart.item_count}</p>` }) });
    try {
      expect((await fetch(`${plain.url}/checkout`, { method: 'POST' })).status).toBe(404);
      const added = await fetch(`${withCheckout.url}/cart/add.js`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 10011, quantity: 2 }) });
      const cookie = (added.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      const placed = await fetch(`${withCheckout.url}/checkout`, { method: 'POST', headers: { cookie } });
      expect([placed.status, await placed.text()]).toEqual([200, '<p>2</p>']);
      const after = (await (await fetch(`${withCheckout.url}/cart.js`, { headers: { cookie } })).json()) as { item_count: number };
      expect(after.item_count).toBe(0);
      expect((await fetch(`${withCheckout.url}/checkout`, { method: 'POST', headers: { cookie } })).status).toBe(409);
    } finally {
      await plain.close();
      await withCheckout.close();
    }
  });
});
