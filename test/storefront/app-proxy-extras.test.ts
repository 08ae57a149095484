/**
 * `GET /proxy/rules`'s storefront extras (CONTRACT "Storefront", 1.; issue 23): the gifts' names
 * and prices from the shop's own catalog, and the rules' titles in the page's locale. Happy,
 * error and cross-shop cases through the app, on the project's databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rule } from '../campaigns/fixtures.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { APP_SECRET, createDomainShop, createLiveCampaign, proxied } from './helpers.ts';
import type { StorefrontShop } from './helpers.ts';

let t: TestApp;
let shop: StorefrontShop;
let other: StorefrontShop;

beforeAll(async () => {
  t = await createTestApp({ PLATFORM_APP_SECRET: APP_SECRET });
  [shop, other] = await Promise.all([createDomainShop(t, 'pro'), createDomainShop(t, 'scale')]);
  await createLiveCampaign(t, shop.id, [rule('Spend 50')]);
  await createLiveCampaign(t, other.id, [rule('Other shop rule')]);
});
afterAll(() => t.close());

describe('GET /proxy/rules, storefront extras', () => {
  it('names the gifts the catalog knows (giftTitles), so a gift choice can show them', async () => {
    const before = await proxied(t, shop, 'rules');
    expect(before.json().giftTitles).toEqual({});
    const catalog = await t.admin({
      method: 'POST',
      url: `/admin/v1/shops/${shop.id}/catalog`,
      payload: {
        products: [
          {
            id: 'gid://shopify/Product/900',
            title: 'Enamel Mug',
            status: 'active',
            variants: [{ id: 'gid://shopify/ProductVariant/1', title: 'Blue', inventoryQuantity: 5, inventoryPolicy: 'DENY' }],
          },
        ],
      },
    });
    expect(catalog.statusCode, catalog.body).toBe(200);
    const res = await proxied(t, shop, 'rules');
    expect(res.json().giftTitles).toEqual({ 'gid://shopify/ProductVariant/1': 'Enamel Mug - Blue' });
    // The API's payload is SPEC's: no storefront extras.
    const api = await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/rules` });
    expect(api.json()).not.toHaveProperty('giftTitles');
  });

  it("prices the gifts the catalog has a price for (giftPrices), from the shop's own catalog only", async () => {
    const mug = (price: number | null) => ({
      products: [
        {
          id: 'gid://shopify/Product/900',
          title: 'Enamel Mug',
          status: 'active',
          variants: [{ id: 'gid://shopify/ProductVariant/1', title: 'Blue', inventoryQuantity: 5, inventoryPolicy: 'DENY', price }],
        },
      ],
    });
    const post = (id: string, price: number | null) => t.admin({ method: 'POST', url: `/admin/v1/shops/${id}/catalog`, payload: mug(price) });
    expect((await post(shop.id, 1250)).statusCode).toBe(200);
    // The other shop's catalog holds the same variant id at another price.
    expect((await post(other.id, 999)).statusCode).toBe(200);
    const res = await proxied(t, shop, 'rules');
    expect(res.json().giftPrices).toEqual({ 'gid://shopify/ProductVariant/1': 1250 });
    expect(res.json().baseCurrency).toBe('USD');
    expect((await proxied(t, other, 'rules')).json().giftPrices).toEqual({ 'gid://shopify/ProductVariant/1': 999 });
    // SPEC's payload has no prices.
    const api = await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/rules` });
    expect(api.json()).not.toHaveProperty('giftPrices');
    // A price the source did not give is no price: the gift is left out, still named.
    expect((await post(shop.id, null)).statusCode).toBe(200);
    const unpriced = (await proxied(t, shop, 'rules')).json();
    expect(unpriced.giftPrices).toEqual({});
    expect(unpriced.giftTitles).toEqual({ 'gid://shopify/ProductVariant/1': 'Enamel Mug - Blue' });
  });

  it("carries the rules' discountTitle in the page's locale (?locale=), its language's, else the default", async () => {
    const [translated, third] = await Promise.all([createDomainShop(t, 'pro'), createDomainShop(t, 'pro')]);
    const options = { discountTitle: 'Free gift', discountTitleTranslations: { fr: 'Cadeau offert', 'pt-BR': 'Brinde' } };
    await createLiveCampaign(t, translated.id, [{ ...rule('Spend 50'), options }, rule('Untranslated')]);
    await createLiveCampaign(t, third.id, [rule('Other shop')]);
    const titles = async (shopOf: StorefrontShop, query: string) => {
      const res = await proxied(t, shopOf, 'rules', { query });
      expect(res.statusCode, res.body).toBe(200);
      return { titles: res.json().rules.map((r: { options: { discountTitle: string } }) => r.options.discountTitle), etag: String(res.headers.etag) };
    };
    const plain = await titles(translated, '');
    expect(plain.titles).toEqual(['Free gift', 'Free mug']);
    const fr = await titles(translated, 'locale=fr');
    expect(fr.titles).toEqual(['Cadeau offert', 'Free mug']);
    // Its own representation: a French page's tag is not the default one's.
    expect(fr.etag).not.toBe(plain.etag);
    expect((await titles(translated, 'locale=FR-ca')).titles).toEqual(['Cadeau offert', 'Free mug']);
    expect((await titles(translated, 'locale=pt-BR')).titles).toEqual(['Brinde', 'Free mug']);
    // A language without translations, a bad or an empty locale: the default texts, the default representation.
    for (const query of ['locale=de', 'locale=', `locale=${'x'.repeat(40)}`, 'locale=fr&locale=de']) {
      const other = await titles(translated, query);
      expect(other.titles, query).toEqual(['Free gift', 'Free mug']);
      expect(other.etag, query).toBe(plain.etag);
    }
    // Another shop's page in French reads its own rules, untranslated.
    expect((await titles(third, 'locale=fr')).titles).toEqual(['Free mug']);
    // The API's GET /rules ignores the query and shows the translations as stored.
    const api = await t.admin({ method: 'GET', url: `/admin/v1/shops/${translated.id}/rules?locale=fr` });
    expect(api.json().rules[0].options).toMatchObject(options);
  });

  it('rejects a rule title translation for a bad locale or that is not a title, with its path', async () => {
    const bad = async (translations: unknown) => {
      const res = await t.admin({
        method: 'POST',
        url: `/admin/v1/shops/${shop.id}/campaigns/import`,
        payload: { campaigns: [{ name: 'Bad', enabled: true, isDraft: false, startAt: null, endAt: null, rules: [{ ...rule('Bad'), options: { discountTitleTranslations: translations } }] }] },
      });
      expect(res.statusCode).toBe(400);
      return res.json().path as unknown[];
    };
    expect(await bad({ 'fr fr': 'x' })).toEqual(expect.arrayContaining(['options', 'discountTitleTranslations', 'fr fr']));
    expect(await bad({ fr: { discountTitle: 'x' } })).toEqual(expect.arrayContaining(['options', 'discountTitleTranslations', 'fr']));
  });
});
