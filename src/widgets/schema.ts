/**
 * Widget settings (SPEC "Widget settings", "PUT /widgets"): one Zod schema for the whole
 * document, its defaults, and the shapes of the widget endpoints.
 *
 * Every section is required on PUT, so a partial body fails (SPEC: "partial updates are not
 * supported"). Objects are strict: an unknown key is a 400, because in a document that is
 * replaced whole a misspelt key (`enabeld`) would otherwise be dropped without a word.
 */
import { textSchema } from '@gcrs/engine';
import { z } from 'zod';

const text = (max: number) => textSchema.max(max);
const hexColor = z
  .string()
  .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, 'Expected a hex colour such as #1a1a1a');
const url = textSchema.max(2048).regex(/^(https?:\/\/|\/)/, 'Expected an http(s) URL or a path starting with /');
const variantGid = textSchema.regex(/^gid:\/\/[^/]+\/ProductVariant\/\d+$/, 'Expected a product variant gid');

/** Each customCode field is stored exactly as sent; the cap only bounds the document. */
export const CUSTOM_CODE_MAX_CHARS = 100_000;

export const toastSchema = z.strictObject({
  enabled: z.boolean(),
  position: z.enum(['top-left', 'top-center', 'top-right', 'bottom-left', 'bottom-center', 'bottom-right']),
  durationMs: z.int().min(500).max(60_000),
  /** Shown when a gift is added; `{{giftTitle}}` is replaced by the storefront. */
  message: text(500),
  backgroundColor: hexColor,
  textColor: hexColor,
});

export const promoPopupSchema = z.strictObject({
  enabled: z.boolean(),
  trigger: z.enum(['page_load', 'exit_intent', 'add_to_cart']),
  delaySeconds: z.int().min(0).max(600),
  title: text(200),
  body: text(2000),
  imageUrl: url.nullable(),
  ctaLabel: text(100),
  ctaUrl: url.nullable(),
  showOncePerSession: z.boolean(),
});

export const progressThresholdSchema = z.strictObject({
  /** Cart subtotal in minor units of the shop's base currency at which this step is reached. */
  amountCents: z.int().min(0),
  label: text(200),
  /** The gift the step unlocks, for the storefront to picture it; null when none. */
  giftVariantId: variantGid.nullable(),
});

export const progressBarSchema = z.strictObject({
  enabled: z.boolean(),
  placement: z.enum(['cart_drawer', 'cart_page', 'announcement_bar']),
  thresholds: z.array(progressThresholdSchema).max(10, 'At most 10 thresholds'),
  /** Shown while a step is ahead; `{{remaining}}` is replaced by the storefront. */
  message: text(500),
  completedMessage: text(500),
  barColor: hexColor,
  backgroundColor: hexColor,
});

export const giftChoiceSchema = z.strictObject({
  enabled: z.boolean(),
  layout: z.enum(['modal', 'inline', 'drawer']),
  title: text(200),
  confirmLabel: text(100),
  allowDecline: z.boolean(),
  showPrices: z.boolean(),
});

export const reminderSchema = z.strictObject({
  enabled: z.boolean(),
  /** Reminds a customer who qualifies but has not chosen or added the gift yet. */
  message: text(500),
  showInCartDrawer: z.boolean(),
  showOnProductPage: z.boolean(),
  delaySeconds: z.int().min(0).max(600),
});

export const customCodeSchema = z.strictObject({
  html: textSchema.max(CUSTOM_CODE_MAX_CHARS),
  css: textSchema.max(CUSTOM_CODE_MAX_CHARS),
  js: textSchema.max(CUSTOM_CODE_MAX_CHARS),
});

const sections = {
  toast: toastSchema,
  promoPopup: promoPopupSchema,
  progressBar: progressBarSchema,
  giftChoice: giftChoiceSchema,
  reminder: reminderSchema,
  customCode: customCodeSchema,
};

/** The document as stored (without `_version`, which lives in its own column). */
export const widgetDocumentSchema = z.strictObject(sections);
export type WidgetDocument = z.output<typeof widgetDocumentSchema>;

/**
 * PUT /widgets body: the whole document. A client's `_version` (e.g. echoed from a GET) is
 * accepted and ignored; the server stamps its own.
 */
export const putWidgetsBodySchema = z
  .strictObject({ _version: z.unknown().optional(), ...sections })
  .transform(({ _version: _ignored, ...document }) => document);

const versionField = z.int().min(0).meta({ description: 'Stamped by the server on every save; 0 before the first' });

/** Widget settings as GET /widgets and PUT /widgets return them. */
export const widgetSettingsSchema = z.object({ _version: versionField, ...sections });
export type WidgetSettings = z.output<typeof widgetSettingsSchema>;

/** Widget settings as the rules payload delivers them: `customCode` only on the Scale plan. */
export const deliveredWidgetsSchema = z.object({ _version: versionField, ...sections, customCode: customCodeSchema.optional() });

export const getWidgetsResponseSchema = z.object({ widgets: widgetSettingsSchema });
export const putWidgetsResponseSchema = z.object({ ok: z.literal(true), widgets: widgetSettingsSchema });

/** What a shop that never saved its widgets gets: everything off, neutral texts and colours. */
export const DEFAULT_WIDGET_DOCUMENT: WidgetDocument = {
  toast: {
    enabled: false,
    position: 'bottom-right',
    durationMs: 4000,
    message: '🎁 {{giftTitle}} was added to your cart',
    backgroundColor: '#111827',
    textColor: '#ffffff',
  },
  promoPopup: {
    enabled: false,
    trigger: 'page_load',
    delaySeconds: 5,
    title: 'A free gift with your order',
    body: '',
    imageUrl: null,
    ctaLabel: 'Shop now',
    ctaUrl: null,
    showOncePerSession: true,
  },
  progressBar: {
    enabled: false,
    placement: 'cart_drawer',
    thresholds: [],
    message: 'Spend {{remaining}} more to unlock your gift',
    completedMessage: 'You unlocked a free gift!',
    barColor: '#16a34a',
    backgroundColor: '#e5e7eb',
  },
  giftChoice: {
    enabled: false,
    layout: 'modal',
    title: 'Choose your free gift',
    confirmLabel: 'Add gift',
    allowDecline: true,
    showPrices: true,
  },
  reminder: {
    enabled: false,
    message: 'You qualify for a free gift. Don\u2019t forget to choose it!',
    showInCartDrawer: true,
    showOnProductPage: false,
    delaySeconds: 0,
  },
  customCode: { html: '', css: '', js: '' },
};
