/**
 * The widget endpoints' shapes (SPEC "GET /widgets", "PUT /widgets"), around the one widget
 * settings schema of the engine package (packages/engine/src/schema/widget-settings.ts), which
 * the storefront script and the admin derive from too.
 */
import { widgetSectionSchemas, widgetSettingsSchema } from '@gcrs/engine';
import { z } from 'zod';

export { DEFAULT_WIDGET_DOCUMENT, MINIMAL_WIDGET_DOCUMENT, widgetDocumentSchema } from '@gcrs/engine';
export type { WidgetDocument, WidgetSettings } from '@gcrs/engine';

/**
 * PUT /widgets body: the whole document, strict. A client's `_version` (e.g. echoed from a GET)
 * is accepted and ignored; the server stamps its own.
 */
export const putWidgetsBodySchema = z
  .strictObject({ _version: z.unknown().optional(), ...widgetSectionSchemas })
  .transform(({ _version: _ignored, ...document }) => document);

export const getWidgetsResponseSchema = z.object({ widgets: widgetSettingsSchema });
export const putWidgetsResponseSchema = z.object({ ok: z.literal(true), widgets: widgetSettingsSchema });
