import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shops } from '../../src/db/schema.ts';
import { DEFAULT_WIDGET_DOCUMENT, MINIMAL_WIDGET_DOCUMENT } from '../../src/widgets/schema.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const document = () => structuredClone(DEFAULT_WIDGET_DOCUMENT);
const put = (shop: TestShop, payload: unknown) =>
  t.api(shop, { method: 'PUT', url: '/api/v1/widgets', payload: payload as Record<string, unknown> });
const withoutFreeLabel = ({ freeLabel: _label, ...rest }: ReturnType<typeof document>['giftChoice']) => rest;
const get = (shop: TestShop) => t.api(shop, { method: 'GET', url: '/api/v1/widgets' });

/** Writes `value` at `path` inside a JSON document (undefined deletes the key). */
function setAt(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  const last = path[path.length - 1] as string;
  if (value === undefined) delete node[last];
  else node[last] = value;
}

describe('GET /widgets', () => {
  it('answers a shop that never saved with the defaults and _version 0', async () => {
    const shop = await t.createShop('scale');
    const res = await get(shop);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ widgets: { _version: 0, ...DEFAULT_WIDGET_DOCUMENT } });
  });

  it('answers a wrong method with 405 and Allow: GET, PUT', async () => {
    const shop = await t.createShop('scale');
    const res = await t.api(shop, { method: 'DELETE', url: '/api/v1/widgets' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, PUT');
  });
});

describe('PUT /widgets', () => {
  it('replaces the document, stamps _version and returns the persisted settings', async () => {
    const shop = await t.createShop('scale');
    const body = document();
    body.toast.enabled = true;
    body.progressBar = {
      ...body.progressBar,
      enabled: true,
      thresholds: [{ amountCents: 5000 }, { amountCents: 10000 }],
    };
    body.customCode = { html: '<script>alert("as is")</script>', css: 'body { color: red }', js: 'window.x = 1;' };

    const first = await put(shop, body);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ ok: true, widgets: { _version: 1, ...body } });
    expect((await get(shop)).json()).toEqual({ widgets: { _version: 1, ...body } });

    const second = await put(shop, { ...body, _version: 999 });
    expect(second.json().widgets._version).toBe(2);
    const third = await put(shop, { ...body, _version: 'ignored too' });
    expect(third.statusCode).toBe(200);
    expect(third.json().widgets._version).toBe(3);
  });

  it('accepts a document with only the fields SPEC names and fills in every default', async () => {
    const shop = await t.createShop('scale');
    const minimal = {
      toast: { enabled: true },
      promoPopup: {},
      progressBar: { thresholds: [{ amountCents: 5000 }, { amountCents: 10000 }] },
      giftChoice: {},
      reminder: {},
      customCode: {},
    };
    const expected = {
      ...DEFAULT_WIDGET_DOCUMENT,
      toast: { ...DEFAULT_WIDGET_DOCUMENT.toast, enabled: true },
      progressBar: {
        ...DEFAULT_WIDGET_DOCUMENT.progressBar,
        thresholds: [{ amountCents: 5000 }, { amountCents: 10000 }],
      },
    };
    const res = await put(shop, minimal);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true, widgets: { _version: 1, ...expected } });
    expect((await get(shop)).json()).toEqual({ widgets: { _version: 1, ...expected } });
  });

  it('keeps what a section sends and defaults only the rest', async () => {
    const shop = await t.createShop('scale');
    const body = { ...MINIMAL_WIDGET_DOCUMENT, giftChoice: { enabled: true, layout: 'drawer' }, customCode: { css: 'a{}' } };
    const res = await put(shop, body);
    expect(res.statusCode, res.body).toBe(200);
    const { widgets } = res.json() as { widgets: typeof DEFAULT_WIDGET_DOCUMENT };
    expect(widgets.giftChoice).toEqual({ ...DEFAULT_WIDGET_DOCUMENT.giftChoice, enabled: true, layout: 'drawer' });
    expect(widgets.customCode).toEqual({ html: '', css: 'a{}', js: '' });
  });

  it('defaults to the same document a shop that never saved gets', () => {
    expect(DEFAULT_WIDGET_DOCUMENT.toast).toEqual({
      enabled: false,
      position: 'bottom-right',
      durationMs: 4000,
      message: '🎁 {{giftTitle}} was added to your cart',
      backgroundColor: '#111827',
      textColor: '#ffffff',
      dismissLabel: 'Dismiss',
      translations: {},
    });
    expect(DEFAULT_WIDGET_DOCUMENT.progressBar.thresholds).toEqual([]);
    expect(DEFAULT_WIDGET_DOCUMENT.customCode).toEqual({ html: '', css: '', js: '' });
  });

  it('stores customCode exactly as sent, on every plan', async () => {
    const shop = await t.createShop('growth');
    const body = { ...document(), customCode: { html: '  <div>\u00e9</div>\n', css: '', js: '/* </script> */' } };
    const res = await t.admin({ method: 'PUT', url: `/admin/v1/shops/${shop.id}/widgets`, payload: body });
    expect(res.statusCode).toBe(200);
    const read = await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/widgets` });
    expect(read.json().widgets.customCode).toEqual(body.customCode);
  });

  it('rejects a partial document with 400 naming the missing section', async () => {
    const shop = await t.createShop('scale');
    const { reminder: _left, ...partial } = document();
    const res = await put(shop, partial);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Invalid widget settings body', path: ['reminder'] });
    expect(typeof res.json().issue).toBe('string');
    expect((await get(shop)).json().widgets._version).toBe(0);
  });

  // [case, where to write, what, the path the 400 names]
  it.each([
    ['a non-boolean toast.enabled', ['toast', 'enabled'], 'yes', ['toast', 'enabled']],
    ['a negative threshold', ['progressBar', 'thresholds'], [{ amountCents: -1 }], ['progressBar', 'thresholds', 0, 'amountCents']],
    ['a fractional threshold', ['progressBar', 'thresholds'], [{ amountCents: 1.5 }], ['progressBar', 'thresholds', 0, 'amountCents']],
    ['a threshold without amountCents', ['progressBar', 'thresholds'], [{}], ['progressBar', 'thresholds', 0, 'amountCents']],
    // Removed by issue 23: the bar's steps and gifts come from the live rules.
    ['a threshold label (removed)', ['progressBar', 'thresholds'], [{ amountCents: 1, label: 'Mug' }], ['progressBar', 'thresholds', 0]],
    ['a threshold gift (removed)', ['progressBar', 'thresholds'], [{ amountCents: 1, giftVariantId: 'gid://shopify/ProductVariant/1' }], ['progressBar', 'thresholds', 0]],
    ['a non-boolean giftChoice.showPrices', ['giftChoice', 'showPrices'], 'yes', ['giftChoice', 'showPrices']],
    ['a translated free label over 100 characters', ['giftChoice', 'translations'], { fr: { freeLabel: 'x'.repeat(101) } }, ['giftChoice', 'translations', 'fr', 'freeLabel']],
    ['a non-string customCode.js', ['customCode', 'js'], 42, ['customCode', 'js']],
    ['an unknown key in a section', ['toast', 'enabeld'], true, ['toast']],
    ['an unknown section', ['banner'], {}, []],
    ['a bad colour', ['toast', 'textColor'], 'red', ['toast', 'textColor']],
    ['a bad enum value', ['giftChoice', 'layout'], 'carousel', ['giftChoice', 'layout']],
    ['a bad locale in translations', ['toast', 'translations'], { 'fr fr': { message: 'x' } }, ['toast', 'translations', 'fr fr']],
    ['an untranslatable field in translations', ['toast', 'translations'], { fr: { position: 'top-left' } }, ['toast', 'translations', 'fr']],
    ['a region name over 100 characters', ['reminder', 'regionLabel'], 'x'.repeat(101), ['reminder', 'regionLabel']],
    ['a translated choice text over 200 characters', ['progressBar', 'translations'], { fr: { choiceText: 'x'.repeat(201) } }, ['progressBar', 'translations', 'fr', 'choiceText']],
    ['a missing toast.enabled (SPEC names it)', ['toast', 'enabled'], undefined, ['toast', 'enabled']],
    ['missing progressBar.thresholds (SPEC names it)', ['progressBar', 'thresholds'], undefined, ['progressBar', 'thresholds']],
    ['a null where a default exists', ['promoPopup', 'title'], null, ['promoPopup', 'title']],
    ['a NUL in a text field', ['toast', 'message'], 'gift\u0000', ['toast', 'message']],
    ['a lone surrogate in customCode', ['customCode', 'html'], '<b>\uD800</b>', ['customCode', 'html']],
  ] as const)('rejects %s with 400 and its path', async (_name, where, value, path) => {
    const shop = await t.createShop('scale');
    const body = document() as unknown as Record<string, unknown>;
    setAt(body, where, value);
    const res = await put(shop, body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Invalid widget settings body', path });
  });

  it.each([
    ['no body', undefined],
    ['an array', []],
    ['null', null],
  ])('rejects %s with 400', async (_name, payload) => {
    const shop = await t.createShop('scale');
    const res = await t.api(shop, {
      method: 'PUT',
      url: '/api/v1/widgets',
      ...(payload === undefined ? {} : { headers: { 'content-type': 'application/json' }, payload: JSON.stringify(payload) }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Invalid widget settings body');
  });

  it('reads a document saved with settings since removed without them, so it can be saved again', async () => {
    const shop = await t.createShop('scale');
    const old = {
      ...document(),
      progressBar: { ...document().progressBar, thresholds: [{ amountCents: 5000, label: 'Free mug', giftVariantId: 'gid://shopify/ProductVariant/11' }] },
      // Saved before issue 23 brought the prices back: no freeLabel, read with its default.
      giftChoice: { ...withoutFreeLabel(document().giftChoice), enabled: true },
    };
    await t.ctx.db.update(shops).set({ widgets: old, widgetsVersion: 4 }).where(eq(shops.id, shop.id));
    const read = (await get(shop)).json() as { widgets: typeof old & { _version: number } };
    expect(read.widgets.progressBar.thresholds).toEqual([{ amountCents: 5000 }]);
    expect(read.widgets.giftChoice).toEqual({ ...document().giftChoice, enabled: true });
    expect(read.widgets._version).toBe(4);
    // The rules payload delivers the document as read, without the removed setting.
    const rules = await t.api(shop, { method: 'GET', url: '/api/v1/rules' });
    expect(rules.json().widgets.giftChoice).toEqual({ ...document().giftChoice, enabled: true });
    const again = await put(shop, read.widgets);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().widgets.progressBar.thresholds).toEqual([{ amountCents: 5000 }]);
  });

  it('reads a document saved before the screen reader names and the bar’s gift words with today’s English, and keeps their translations', async () => {
    const shop = await t.createShop('scale');
    const { dismissLabel: _dismiss, ...toast } = document().toast;
    const { unknownGiftTitle: _unknown, choiceText: _choice, stepsLabel: _steps, ...progressBar } = document().progressBar;
    const { regionLabel: _region, ...reminder } = document().reminder;
    await t.ctx.db.update(shops).set({ widgets: { ...document(), toast, progressBar, reminder }, widgetsVersion: 2 }).where(eq(shops.id, shop.id));
    const expected = { dismissLabel: 'Dismiss', unknownGiftTitle: 'a free gift', choiceText: 'one of {{gifts}}', stepsLabel: 'Gift steps', regionLabel: 'Free gift reminder' };
    for (const widgets of [(await get(shop)).json().widgets, (await t.api(shop, { method: 'GET', url: '/api/v1/rules' })).json().widgets]) {
      expect({ ...widgets.toast, ...widgets.progressBar, ...widgets.reminder }).toMatchObject(expected);
    }
    const body = document();
    body.toast.translations = { fr: { dismissLabel: 'Fermer' } };
    body.progressBar.translations = { fr: { unknownGiftTitle: 'un cadeau', choiceText: 'au choix : {{gifts}}', stepsLabel: 'Paliers' } };
    body.reminder.translations = { 'pt-BR': { regionLabel: 'Lembrete de brinde' } };
    expect((await put(shop, body)).statusCode).toBe(200);
    const read = (await get(shop)).json().widgets;
    expect([read.toast.translations, read.progressBar.translations, read.reminder.translations]).toEqual([body.toast.translations, body.progressBar.translations, body.reminder.translations]);
  });

  it("keeps each shop's widgets to itself", async () => {
    const a = await t.createShop('scale');
    const b = await t.createShop('scale');
    const body = document();
    body.toast.message = 'only for a';
    await put(a, body);
    expect((await get(b)).json().widgets).toEqual({ _version: 0, ...DEFAULT_WIDGET_DOCUMENT });
    expect((await get(a)).json().widgets.toast.message).toBe('only for a');
  });

  it('answers an unknown shop on the admin mount with 404', async () => {
    const res = await t.admin({ method: 'PUT', url: '/admin/v1/shops/shp_nope/widgets', payload: document() });
    expect(res.statusCode).toBe(404);
    const read = await t.admin({ method: 'GET', url: '/admin/v1/shops/shp_nope/widgets' });
    expect(read.statusCode).toBe(404);
  });

  it('needs a key of a Scale shop', async () => {
    const shop = await t.createShop('pro');
    expect((await get(shop)).statusCode).toBe(403);
    expect((await put(shop, document())).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/widgets' })).statusCode).toBe(401);
  });
});
