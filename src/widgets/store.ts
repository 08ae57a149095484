/**
 * Widget settings in storage: the document in `shops.widgets`, its version in
 * `shops.widgets_version` (0 until the first save, when the defaults apply).
 */
import { eq, sql } from 'drizzle-orm';
import type { Queryable } from '../db/database.ts';
import { shops } from '../db/schema.ts';
import { DEFAULT_WIDGET_DOCUMENT } from './schema.ts';
import type { WidgetDocument, WidgetSettings } from './schema.ts';

/**
 * The settings of a stored row: the saved document, or the defaults before the first save.
 *
 * @example
 *   widgetSettingsOf(null, 0); // { _version: 0, ...DEFAULT_WIDGET_DOCUMENT }
 */
export function widgetSettingsOf(stored: Record<string, unknown> | null, version: number): WidgetSettings {
  const document = stored === null ? DEFAULT_WIDGET_DOCUMENT : withoutRemovedSettings(stored as WidgetDocument);
  return { _version: version, ...document };
}

/**
 * A document saved before a setting was removed from the schema, read as the schema is now, so
 * a GET echoed into a PUT is accepted: `progressBar.thresholds[].label` and `.giftVariantId`
 * (issue 23: the bar's steps and gifts come from the live rules) are dropped.
 *
 * @example withoutRemovedSettings(old).progressBar.thresholds // [{ amountCents: 5000 }]
 */
export function withoutRemovedSettings(document: WidgetDocument): WidgetDocument {
  const thresholds = document.progressBar?.thresholds;
  if (!Array.isArray(thresholds)) return document;
  return { ...document, progressBar: { ...document.progressBar, thresholds: thresholds.map(({ amountCents }) => ({ amountCents })) } };
}

/** The shop's widget settings, or undefined when the shop does not exist. */
export async function getWidgetSettings(db: Queryable, shopId: string): Promise<WidgetSettings | undefined> {
  const [row] = await db
    .select({ widgets: shops.widgets, widgetsVersion: shops.widgetsVersion })
    .from(shops)
    .where(eq(shops.id, shopId));
  return row ? widgetSettingsOf(row.widgets, row.widgetsVersion) : undefined;
}

/**
 * Replaces the whole document and stamps the next version. Call inside the transaction that
 * also bumps the rules version (widgets are part of GET /rules).
 */
export async function saveWidgetSettings(tx: Queryable, shopId: string, document: WidgetDocument): Promise<WidgetSettings | undefined> {
  const [row] = await tx
    .update(shops)
    .set({ widgets: document, widgetsVersion: sql`${shops.widgetsVersion} + 1` })
    .where(eq(shops.id, shopId))
    .returning({ widgets: shops.widgets, widgetsVersion: shops.widgetsVersion });
  return row ? widgetSettingsOf(row.widgets, row.widgetsVersion) : undefined;
}
