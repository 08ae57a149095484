/**
 * Widget settings in storage: the document in `shops.widgets`, its version in
 * `shops.widgets_version` (0 until the first save, when the defaults apply).
 */
import { storedWidgetDocumentSchema } from '@gcrs/engine';
import { eq, sql } from 'drizzle-orm';
import type { Queryable } from '../db/database.ts';
import { shops } from '../db/schema.ts';
import { DEFAULT_WIDGET_DOCUMENT } from './schema.ts';
import type { WidgetDocument, WidgetSettings } from './schema.ts';

/**
 * The settings of a stored row: the saved document read as the schema is now, or the defaults
 * before the first save. A setting removed from the schema since the save is dropped (and one
 * added is filled with its default), so a GET echoed into a PUT is accepted.
 *
 * @example
 *   widgetSettingsOf(null, 0); // { _version: 0, ...DEFAULT_WIDGET_DOCUMENT }
 *   widgetSettingsOf({ ...saved, progressBar: { thresholds: [{ amountCents: 5000, label: 'Mug' }] } }, 3).progressBar.thresholds; // [{ amountCents: 5000 }]
 */
export function widgetSettingsOf(stored: Record<string, unknown> | null, version: number): WidgetSettings {
  if (stored === null) return { _version: version, ...DEFAULT_WIDGET_DOCUMENT };
  const read = storedWidgetDocumentSchema.safeParse(stored);
  // Only what this service validated is stored: a document that no longer parses is a bug, kept as it is rather than lost.
  return { _version: version, ...(read.success ? read.data : (stored as WidgetDocument)) };
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
