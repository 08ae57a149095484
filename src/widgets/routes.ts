/** SPEC "GET /widgets" and "PUT /widgets": read and replace the shop's widget settings. */
import type { AppContext } from '../context.ts';
import { notFound } from '../http/errors.ts';
import { defineShopRoute } from '../http/shop-routes.ts';
import type { ShopRoute } from '../http/shop-routes.ts';
import { writeShop } from '../shops/unit-of-work.ts';
import { getWidgetsResponseSchema, putWidgetsBodySchema, putWidgetsResponseSchema } from './schema.ts';
import { getWidgetSettings, saveWidgetSettings } from './store.ts';

/** SPEC "Errors": a known error text. */
export const INVALID_WIDGETS_BODY = 'Invalid widget settings body';

export function widgetRoutes(ctx: AppContext): ShopRoute[] {
  return [
    defineShopRoute({
      method: 'GET',
      path: '/widgets',
      operationId: 'getWidgets',
      summary: 'Read the widget settings',
      description: 'As last saved, `customCode` included on every plan; the defaults with `_version: 0` before the first save.',
      tag: 'Widgets',
      rateLimit: 'default',
      responses: { 200: { description: 'The widget settings', schema: getWidgetsResponseSchema } },
      handler: async ({ shop }) => {
        const widgets = await getWidgetSettings(ctx.db, shop.id);
        if (!widgets) throw notFound('Shop');
        return { widgets };
      },
    }),

    defineShopRoute({
      method: 'PUT',
      path: '/widgets',
      operationId: 'replaceWidgets',
      summary: 'Replace the widget settings',
      description:
        'The whole document: every section is required and unknown keys are rejected. SPEC names only ' +
        '`toast.enabled` and `progressBar.thresholds[].amountCents`; every other field may be left out and gets the ' +
        'default this schema shows, and the response returns the document as saved. The server stamps `_version` ' +
        '(a sent `_version` is ignored). `customCode` is stored as sent; GET /rules delivers it on the Scale plan only.',
      tag: 'Widgets',
      rateLimit: 'default',
      body: putWidgetsBodySchema,
      bodyError: INVALID_WIDGETS_BODY,
      responses: {
        200: { description: 'Saved', schema: putWidgetsResponseSchema },
        400: { description: '`{ "error": "Invalid widget settings body", "issue", "path" }`' },
      },
      handler: async ({ shop, body }) => {
        const widgets = await writeShop(ctx, shop.id, async (uow) => {
          // Widgets are part of GET /rules.
          uow.touchRules();
          return saveWidgetSettings(uow.tx, uow.shop.id, body);
        });
        if (!widgets) throw notFound('Shop');
        return { ok: true as const, widgets };
      },
    }),
  ];
}
