/**
 * The `widgets` of the rules payload as the script reads them (the server's widget schema,
 * src/widgets/schema.ts, fills every default before delivery). Each section is used only
 * when `enabled`; `customCode` arrives only on the Scale plan.
 */
export type ToastSettings = { enabled: boolean; position?: string; durationMs?: number; message?: string; backgroundColor?: string; textColor?: string };
export type PromoPopupSettings = {
  enabled: boolean;
  trigger?: 'page_load' | 'exit_intent' | 'add_to_cart';
  delaySeconds?: number;
  title?: string;
  body?: string;
  imageUrl?: string | null;
  ctaLabel?: string;
  ctaUrl?: string | null;
  showOncePerSession?: boolean;
};
export type ProgressBarSettings = {
  enabled: boolean;
  placement?: 'cart_drawer' | 'cart_page' | 'announcement_bar';
  message?: string;
  completedMessage?: string;
  barColor?: string;
  backgroundColor?: string;
};
export type GiftChoiceSettings = { enabled: boolean; layout?: string; title?: string; confirmLabel?: string; allowDecline?: boolean; showPrices?: boolean };
export type ReminderSettings = { enabled: boolean; message?: string; showInCartDrawer?: boolean; showOnProductPage?: boolean; delaySeconds?: number };
export type CustomCode = { html?: string; css?: string; js?: string };

export type WidgetSettings = {
  _version?: number;
  toast?: ToastSettings;
  promoPopup?: PromoPopupSettings;
  progressBar?: ProgressBarSettings;
  giftChoice?: GiftChoiceSettings;
  reminder?: ReminderSettings;
  customCode?: CustomCode;
};

/** A section when present and enabled, else undefined. */
export function enabledSection<K extends Exclude<keyof WidgetSettings, '_version' | 'customCode'>>(
  widgets: WidgetSettings | undefined,
  key: K,
): NonNullable<WidgetSettings[K]> | undefined {
  const section = widgets?.[key];
  return section !== undefined && section !== null && section.enabled === true ? (section as NonNullable<WidgetSettings[K]>) : undefined;
}
