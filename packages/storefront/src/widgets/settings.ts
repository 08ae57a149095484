/**
 * The `widgets` of the rules payload as the script reads them: the types are the engine's one
 * widget settings schema (packages/engine/src/schema/widget-settings.ts), imported as types
 * only, so no zod enters the bundle. The server fills every default before delivery. Each
 * section is used only when `enabled`; `customCode` arrives only on the Scale plan.
 */
import type { DeliveredWidgets, WidgetSectionKey } from '@gcrs/engine';

export type { CustomCode, GiftChoiceSettings, ProgressBarSettings, PromoPopupSettings, ReminderSettings, ToastSettings } from '@gcrs/engine';
export type WidgetSettings = DeliveredWidgets;

/** A section when present and enabled, else undefined. */
export function enabledSection<K extends WidgetSectionKey>(widgets: WidgetSettings | undefined, key: K): WidgetSettings[K] | undefined {
  const section = widgets?.[key];
  return section?.enabled === true ? section : undefined;
}
