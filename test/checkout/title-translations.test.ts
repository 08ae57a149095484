/**
 * Issue 23 (translations), through the app: a rule's `options.discountTitleTranslations` is
 * validated (400 with its path: a bad locale, an empty or long title, more than 20 locales, the
 * same locale twice in two cases), stored as given and served by GET /rules; the discount sync
 * writes the titles' translations into the checkout configuration (`l`, locales in lower case),
 * and the function then gives the buyer's language's title. Another shop can neither change nor
 * see it. Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import { runGiftDiscount } from '@gcrs/engine/checkout';
import type { CheckoutFunctionConfig } from '@gcrs/engine/checkout';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboxDispatcher } from '../../src/outbox/dispatcher.ts';
import { createPlatformJobs } from '../../src/platform-jobs.ts';
import { createRecordingDiscountPort } from '../../src/platform/discount-port.ts';
import { createWebhookSender } from '../../src/webhooks/sender.ts';
import { liveCampaign, rule, variant } from '../evaluate/helpers.ts';
import { importCampaigns, payloadOf, readCampaign } from '../rules/helpers.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

const always = { type: 'cart.item_count_gte', value: 1 };
const TRANSLATIONS = { fr: 'Cadeau offert', 'pt-BR': 'Brinde grátis', pt: 'Oferta' };
const translated = (name: string, discountTitleTranslations: unknown) => {
  const base = rule(name, always);
  return { ...base, options: { ...base.options, discountTitleTranslations } };
};

let t: TestApp;
let shop: TestShop;
let other: TestShop;
let campaignId: string;

beforeAll(async () => {
  t = await createTestApp();
  shop = await t.createShop('scale');
  other = await t.createShop('scale');
  [campaignId = ''] = await importCampaigns(t, shop, [liveCampaign('Gifts', [translated('Translated', TRANSLATIONS), rule('Plain', always)])]);
});
afterAll(() => t.close());

const campaignOf = async (target: TestShop) => (await t.api(target, { method: 'GET', url: `/api/v1/campaigns/${campaignId}` })).json().campaign;
const withTranslations = (current: { rules: Array<{ options: object }> }, value: unknown) => ({
  ...current,
  rules: [{ ...current.rules[0], options: { ...current.rules[0]?.options, discountTitleTranslations: value } }, ...current.rules.slice(1)],
});

describe('options.discountTitleTranslations through the app', () => {
  it('is stored as given (absent stays absent) and served by GET /rules', async () => {
    const rules = (await readCampaign(t, shop, campaignId)).rules as unknown as Array<{ options: Record<string, unknown> }>;
    expect(rules.map((r) => r.options.discountTitleTranslations)).toEqual([TRANSLATIONS, undefined]);
    const payload = (await payloadOf(t, shop)) as unknown as { rules: Array<{ options: Record<string, unknown> }> };
    expect(payload.rules.map((r) => r.options.discountTitleTranslations)).toEqual([TRANSLATIONS, undefined]);
  });

  it('the discount sync writes the translations, and the function speaks the buyer\'s language', async () => {
    const port = createRecordingDiscountPort(t.ctx.db);
    const dispatcher = createOutboxDispatcher({ db: t.ctx.db, logger: t.ctx.logger, jobs: createPlatformJobs({ db: t.ctx.db, logger: t.ctx.logger, discountPort: port }), webhooks: createWebhookSender(), pollMs: 20 });
    // The import queued a sync; a PUT of the same campaign queues another (the last one wins).
    expect((await t.api(shop, { method: 'PUT', url: `/api/v1/campaigns/${campaignId}`, payload: await campaignOf(shop) })).statusCode).toBe(200);
    await dispatcher.runOnce();
    const res = await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/checkout-config` });
    expect(res.statusCode, res.body).toBe(200);
    const config = res.json().checkoutConfig.config as CheckoutFunctionConfig;
    expect(config.m).toEqual(['Free gift', 'Free gift']);
    expect(config.l).toEqual([{ fr: 'Cadeau offert', 'pt-br': 'Brinde grátis', pt: 'Oferta' }]);
    const ruleIds = (await readCampaign(t, shop, campaignId)).rules.map((r) => r.id);
    const titleFor = (ruleIndex: number, language?: string) => {
      const result = runGiftDiscount({
        cart: {
          lines: [
            { id: 'gid://shopify/CartLine/1', quantity: 1, cost: { amountPerQuantity: { amount: '10.00', currencyCode: 'USD' } }, merchandise: { id: variant(11), product: { id: 'gid://shopify/Product/1' } } },
            {
              id: 'gid://shopify/CartLine/2',
              quantity: 1,
              cost: { amountPerQuantity: { amount: '5.00', currencyCode: 'USD' } },
              merchandise: { id: variant(900), product: { id: 'gid://shopify/Product/9' } },
              campaignId: { value: campaignId },
              ruleId: { value: ruleIds[ruleIndex] ?? '' },
            },
          ],
        },
        localization: { country: { isoCode: 'US' }, ...(language === undefined ? {} : { language: { isoCode: language } }) },
        discount: { discountClasses: ['PRODUCT'], metafield: { jsonValue: config } },
      });
      return result.operations[0]?.productDiscountsAdd.candidates.map((c) => c.message);
    };
    expect(titleFor(0, 'FR')).toEqual(['Cadeau offert']);
    expect(titleFor(0, 'PT_BR')).toEqual(['Brinde grátis']);
    expect(titleFor(0, 'PT_PT')).toEqual(['Oferta']);
    expect(titleFor(0, 'DE')).toEqual(['Free gift']);
    expect(titleFor(1, 'FR')).toEqual(['Free gift']);
    // Another shop has no configuration of its own yet: nothing of this one shows.
    expect((await t.admin({ method: 'GET', url: `/admin/v1/shops/${other.id}/checkout-config` })).statusCode).toBe(404);
  });

  const BAD: Array<[string, unknown, Array<string | number>]> = [
    ['a locale that is not one', { 'fr FR': 'Cadeau' }, ['fr FR']],
    ['an empty title', { fr: '' }, ['fr']],
    ['a title over 255 characters', { fr: 'x'.repeat(256) }, ['fr']],
    ['more than 20 locales', Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`l${String.fromCharCode(97 + i)}`, 'Gift'])), []],
    ['one locale twice, in two cases', { fr: 'Cadeau', FR: 'Cadeau' }, ['FR']],
    ['not an object', ['Cadeau'], []],
    ['a title that is not text', { fr: 5 }, ['fr']],
  ];
  it.each(BAD)('refuses %s with 400 and its path, on import and on PUT', async (_, value, tail) => {
    const imported = await t.admin({
      method: 'POST',
      url: `/admin/v1/shops/${shop.id}/campaigns/import`,
      payload: { campaigns: [liveCampaign('Bad', [translated('Bad', value)])] },
    });
    expect(imported.statusCode, imported.body).toBe(400);
    expect(imported.json()).toMatchObject({ error: expect.any(String), path: ['campaigns', 0, 'rules', 0, 'options', 'discountTitleTranslations', ...tail] });
    const res = await t.api(shop, { method: 'PUT', url: `/api/v1/campaigns/${campaignId}`, payload: withTranslations(await campaignOf(shop), value) });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ path: ['rules', 0, 'options', 'discountTitleTranslations', ...tail] });
  });

  it('accepts exactly 20 locales and 255 characters, and removes them when left out', async () => {
    const twenty = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`l${String.fromCharCode(97 + i)}`, 'y'.repeat(255)]));
    const current = await campaignOf(shop);
    expect((await t.api(shop, { method: 'PUT', url: `/api/v1/campaigns/${campaignId}`, payload: withTranslations(current, twenty) })).statusCode).toBe(200);
    expect(((await readCampaign(t, shop, campaignId)).rules[0] as unknown as { options: Record<string, unknown> }).options.discountTitleTranslations).toEqual(twenty);
    expect((await t.api(shop, { method: 'PUT', url: `/api/v1/campaigns/${campaignId}`, payload: withTranslations(current, undefined) })).statusCode).toBe(200);
    expect(((await readCampaign(t, shop, campaignId)).rules[0] as unknown as { options: Record<string, unknown> }).options.discountTitleTranslations).toBeUndefined();
    expect((await t.api(shop, { method: 'PUT', url: `/api/v1/campaigns/${campaignId}`, payload: withTranslations(current, TRANSLATIONS) })).statusCode).toBe(200);
  });

  it('another shop can neither change nor read them', async () => {
    const current = await campaignOf(shop);
    expect((await t.api(other, { method: 'PUT', url: `/api/v1/campaigns/${campaignId}`, payload: withTranslations(current, { de: 'Geschenk' }) })).statusCode).toBe(404);
    expect((await t.api(other, { method: 'GET', url: `/api/v1/campaigns/${campaignId}` })).statusCode).toBe(404);
    expect(((await readCampaign(t, shop, campaignId)).rules[0] as unknown as { options: Record<string, unknown> }).options.discountTitleTranslations).toEqual(TRANSLATIONS);
    expect(((await payloadOf(t, other)) as unknown as { rules: unknown[] }).rules).toEqual([]);
  });
});
