import { rulesPayloadSchema } from '@gcrs/engine';
import type { ResolvedShopSettings, RulesPayloadInput } from '@gcrs/engine';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { RulesPayload } from '../../src/rules/rules-cache.ts';
import { rulesPayloadResponseSchema } from '../../src/rules/schemas.ts';
import { DEFAULT_WIDGET_DOCUMENT } from '../../src/widgets/schema.ts';
import { campaign, rule } from '../campaigns/fixtures.ts';
import { errorBody } from '../support/error-body.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { getRules, importCampaigns, payloadOf, readCampaign, startExperiment } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const HOUR = 3_600_000;
const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
const live = (name: string, extra: Record<string, unknown> = {}) => campaign(name, { enabled: true, isDraft: false, ...extra });

describe('GET /rules payload', () => {
  it('is, by its type, the payload the engine reads: the server writes no second copy of the shape', () => {
    // Checked by the compiler (npm run typecheck); a field the server renames or retypes fails here.
    expectTypeOf<RulesPayload>().toExtend<RulesPayloadInput>();
    expectTypeOf<RulesPayload['shopSettings']>().toEqualTypeOf<ResolvedShopSettings>();
  });

  it('answers an empty shop with defaults, and the payload parses with the engine schema', async () => {
    const shop = await t.createShop('scale');
    const res = await getRules(t, shop);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json();
    expect(body).toEqual({
      rules: [],
      debugAllowed: false,
      shopSettings: {
        engine: { runOnExpressCheckout: true, runOnCartSubmission: true, useDiscountedPrices: false, evaluationDelay: 0, stacking: 'all' },
        checkout: { blockZeroValueCart: false, blockGiftOnlyCarts: true, stripZeroPriceItems: false },
        data: { collectCartTokens: true },
      },
      widgets: { _version: 0, ...DEFAULT_WIDGET_DOCUMENT },
      baseCurrency: 'USD',
    });
    expect('experiments' in body).toBe(false);
    expect(rulesPayloadSchema.safeParse(body).success).toBe(true);
    expect(rulesPayloadResponseSchema.safeParse(body).success).toBe(true);
  });

  it('holds only the enabled rules of live campaigns, each as in the campaign GET plus campaignId', async () => {
    const shop = await t.createShop('scale', { currency: 'EUR' });
    const [liveId, disabledId, draftId, secondId] = await importCampaigns(t, shop, [
      live('Live', { rules: [rule('on'), { ...rule('off'), enabled: false }, rule('also on')] }),
      campaign('Disabled', { enabled: false, isDraft: false, rules: [rule('x')] }),
      campaign('Draft', { enabled: true, isDraft: true, rules: [rule('y')] }),
      live('Second', { rules: [rule('second')] }),
    ]);
    const payload = await payloadOf(t, shop);
    expect(payload.rules.map((r) => r.name)).toEqual(['on', 'also on', 'second']);
    expect(payload.rules.map((r) => r.campaignId)).toEqual([liveId, liveId, secondId]);
    expect(payload.rules.some((r) => r.campaignId === disabledId || r.campaignId === draftId)).toBe(false);
    expect(payload.baseCurrency).toBe('EUR');

    const stored = await readCampaign(t, shop, liveId as string);
    const onRule = stored.rules.find((r) => r.name === 'on');
    expect(payload.rules[0]).toEqual({ ...onRule, campaignId: liveId, startAt: null, endAt: null });
    expect(rulesPayloadSchema.parse(payload).rules).toHaveLength(3);
    expect(rulesPayloadResponseSchema.safeParse(payload).success).toBe(true);
  });

  it("leaves out a live campaign whose schedule window does not contain now, and gives in-window rules their window", async () => {
    const shop = await t.createShop('scale');
    const window = { startAt: iso(-HOUR), endAt: iso(HOUR) };
    const [inWindow] = await importCampaigns(t, shop, [
      live('Now', { ...window, rules: [rule('now')] }),
      live('Ended', { startAt: iso(-2 * HOUR), endAt: iso(-HOUR), rules: [rule('ended')] }),
      live('Later', { startAt: iso(HOUR), endAt: null, rules: [rule('later')] }),
      live('Open start', { startAt: null, endAt: iso(HOUR), rules: [rule('open start')] }),
    ]);
    const payload = await payloadOf(t, shop);
    expect(payload.rules.map((r) => r.name)).toEqual(['now', 'open start']);
    expect(payload.rules[0]).toMatchObject({ campaignId: inWindow, ...window });
    expect(payload.rules[1]).toMatchObject({ startAt: null });
  });

  it('resolves shopSettings over the defaults and adds the min-order-total keys only while the guard is set', async () => {
    const shop = await t.createShop('scale');
    const patch = (settings: unknown) =>
      t.admin({ method: 'PATCH', url: `/admin/v1/shops/${shop.id}`, payload: { settings } as Record<string, unknown> });

    expect((await patch({ engine: { evaluationDelay: 250 }, checkout: { minOrderTotalCents: 2500 } })).statusCode).toBe(200);
    let settings = (await payloadOf(t, shop)).shopSettings;
    expect(settings.engine.evaluationDelay).toBe(250);
    expect(settings.engine.runOnExpressCheckout).toBe(true);
    expect(settings.checkout.minOrderTotalCents).toBe(2500);
    expect(typeof settings.checkout.minOrderTotalMessage).toBe('string');

    expect((await patch({ checkout: { minOrderTotalCents: null } })).statusCode).toBe(200);
    settings = (await payloadOf(t, shop)).shopSettings;
    expect('minOrderTotalCents' in settings.checkout).toBe(false);
    expect('minOrderTotalMessage' in settings.checkout).toBe(false);
  });

  it('delivers customCode on the Scale plan only; GET /widgets keeps it on every plan', async () => {
    const widgets = { ...DEFAULT_WIDGET_DOCUMENT, customCode: { html: '<div id="x"></div>', css: '#x{}', js: 'console.log(1)' } };
    for (const plan of ['free', 'growth', 'pro', 'scale'] as const) {
      const shop = await t.createShop(plan);
      const put = await t.admin({ method: 'PUT', url: `/admin/v1/shops/${shop.id}/widgets`, payload: widgets });
      expect(put.statusCode, put.body).toBe(200);
      const delivered = (await payloadOf(t, shop, 'admin')).widgets;
      if (plan === 'scale') expect(delivered.customCode).toEqual(widgets.customCode);
      else expect('customCode' in delivered).toBe(false);
      expect(delivered.toast).toEqual(widgets.toast);
      const read = await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/widgets` });
      expect(read.json().widgets.customCode).toEqual(widgets.customCode);
    }
  });

  it('strips customCode again when a Scale shop moves to a lower plan', async () => {
    const shop = await t.createShop('scale');
    const widgets = { ...DEFAULT_WIDGET_DOCUMENT, customCode: { html: '<b>hi</b>', css: '', js: '' } };
    await t.admin({ method: 'PUT', url: `/admin/v1/shops/${shop.id}/widgets`, payload: widgets });
    expect((await payloadOf(t, shop, 'admin')).widgets.customCode).toEqual(widgets.customCode);
    await t.admin({ method: 'PATCH', url: `/admin/v1/shops/${shop.id}`, payload: { plan: 'pro' } });
    expect('customCode' in (await payloadOf(t, shop, 'admin')).widgets).toBe(false);
  });

  it('sets debugAllowed for the admin mount only', async () => {
    const shop = await t.createShop('scale');
    expect((await payloadOf(t, shop, 'api')).debugAllowed).toBe(false);
    expect((await payloadOf(t, shop, 'admin')).debugAllowed).toBe(true);
  });

  it('carries experiments in engine shape while one runs, and omits the key otherwise', async () => {
    const shop = await t.createShop('scale');
    const [id, notLive] = await importCampaigns(t, shop, [
      live('AB', { rules: [rule('a'), rule('b')] }),
      campaign('Draft AB', { rules: [rule('c'), rule('d')] }),
    ]);
    const ruleIds = (await readCampaign(t, shop, id as string)).rules.map((r) => r.id);
    expect('experiments' in (await payloadOf(t, shop))).toBe(false);

    // An experiment of a campaign that is not live stays out, like its rules.
    const draftRules = (await readCampaign(t, shop, notLive as string)).rules.map((r) => r.id);
    await startExperiment(t, shop, notLive as string, draftRules);
    expect('experiments' in (await payloadOf(t, shop))).toBe(false);

    const experiment = await startExperiment(t, shop, id as string, ruleIds);
    const payload = await payloadOf(t, shop);
    expect(payload.experiments).toEqual([
      {
        id: experiment.id,
        campaignId: id,
        variants: experiment.variants.map((v) => ({ id: v.id, ruleId: v.ruleId, weight: v.weight })),
      },
    ]);
    expect(rulesPayloadSchema.parse(payload).experiments).toHaveLength(1);

    const stop = await t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/campaigns/${id}/experiments/${experiment.id}/stop` });
    expect(stop.statusCode).toBe(200);
    expect('experiments' in (await payloadOf(t, shop))).toBe(false);
  });

  it("never shows another shop's rules", async () => {
    const mine = await t.createShop('scale');
    const other = await t.createShop('scale');
    await importCampaigns(t, other, [live('Theirs', { rules: [rule('theirs')] })]);
    expect((await payloadOf(t, mine)).rules).toEqual([]);
    expect((await payloadOf(t, other)).rules).toHaveLength(1);
  });

  it('answers an unknown shop on the admin mount with 404', async () => {
    const res = await t.admin({ method: 'GET', url: '/admin/v1/shops/shp_missing/rules' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(errorBody('Shop not found', 'not_found'));
  });

  it('answers a wrong method with 405', async () => {
    const shop = await t.createShop('scale');
    const res = await t.api(shop, { method: 'POST', url: '/api/v1/rules' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET');
  });

  it('needs a Scale key on /api/v1', async () => {
    const shop = await t.createShop('pro');
    expect((await getRules(t, shop)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/rules' })).statusCode).toBe(401);
  });
});
