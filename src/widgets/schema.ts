/**
 * Widget settings (SPEC "Widget settings", "PUT /widgets"): one Zod schema for the whole
 * document, its defaults, and the shapes of the widget endpoints.
 *
 * SPEC names only the sections, `toast.enabled` and `progressBar.thresholds[].amountCents`:
 * those are required; every other field has a default written beside it here (and listed in
 * docs/api-conventions.md), so a document with only SPEC's fields is accepted and saved with
 * the defaults filled in. Every section is required, so a body missing one fails (SPEC:
 * "partial updates are not supported"). Objects are strict: an unknown key is a 400, because
 * in a document that is replaced whole a misspelt key (`enabeld`) would otherwise be dropped
 * without a word.
 */
import { textSchema } from '@gcrs/engine';
import { z } from 'zod';

const text = (max: number) => textSchema.max(max);
const hexColor = textSchema.regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, 'Expected a hex colour such as #1a1a1a');
const url = textSchema.max(2048).regex(/^(https?:\/\/|\/)/, 'Expected an http(s) URL or a path starting with /');

/** Each customCode field is stored exactly as sent; the cap only bounds the document. */
export const CUSTOM_CODE_MAX_CHARS = 100_000;

export const toastSchema = z.strictObject({
  enabled: z.boolean(),
  position: z
    .enum(['top-left', 'top-center', 'top-right', 'bottom-left', 'bottom-center', 'bottom-right'])
    .default('bottom-right'),
  durationMs: z.int().min(500).max(60_000).default(4000),
  /** Shown when a gift is added; `{{giftTitle}}` is replaced by the storefront. */
  message: text(500).default('🎁 {{giftTitle}} was added to your cart'),
  backgroundColor: hexColor.default('#111827'),
  textColor: hexColor.default('#ffffff'),
});

export const promoPopupSchema = z.strictObject({
  enabled: z.boolean().default(false),
  trigger: z.enum(['page_load', 'exit_intent', 'add_to_cart']).default('page_load'),
  delaySeconds: z.int().min(0).max(600).default(5),
  title: text(200).default('A free gift with your order'),
  body: text(2000).default(''),
  imageUrl: url.nullable().default(null),
  ctaLabel: text(100).default('Shop now'),
  ctaUrl: url.nullable().default(null),
  showOncePerSession: z.boolean().default(true),
});

/**
 * SPEC names `progressBar.thresholds[].amountCents`, so the API keeps accepting, storing and
 * returning it; since issue 23 the storefront draws the bar's steps from the live rules'
 * `cart.subtotal_gte` thresholds and their gifts, and reads none of these. `label` and
 * `giftVariantId` were removed (a stored document that has them is read without them:
 * store.ts); `amountCents` stays only because SPEC names it (docs/rules-payload.md).
 */
export const progressThresholdSchema = z.strictObject({
  amountCents: z.int().min(0),
});

export const progressBarSchema = z.strictObject({
  enabled: z.boolean().default(false),
  placement: z.enum(['cart_drawer', 'cart_page', 'announcement_bar']).default('cart_drawer'),
  thresholds: z.array(progressThresholdSchema).max(10, 'At most 10 thresholds'),
  /** Shown while a step is ahead; `{{remaining}}` and `{{gift}}` are replaced by the storefront. */
  message: text(500).default('Spend {{remaining}} more to unlock your gift'),
  completedMessage: text(500).default('You unlocked a free gift!'),
  barColor: hexColor.default('#16a34a'),
  backgroundColor: hexColor.default('#e5e7eb'),
});

export const giftChoiceSchema = z.strictObject({
  enabled: z.boolean().default(false),
  layout: z.enum(['modal', 'inline', 'drawer']).default('modal'),
  title: text(200).default('Choose your free gift'),
  confirmLabel: text(100).default('Add gift'),
  allowDecline: z.boolean().default(true),
  showPrices: z.boolean().default(true),
});

export const reminderSchema = z.strictObject({
  enabled: z.boolean().default(false),
  /** Reminds a customer who qualifies but has not chosen or added the gift yet. */
  message: text(500).default('You qualify for a free gift. Don\u2019t forget to choose it!'),
  showInCartDrawer: z.boolean().default(true),
  showOnProductPage: z.boolean().default(false),
  delaySeconds: z.int().min(0).max(600).default(0),
});

export const customCodeSchema = z.strictObject({
  html: textSchema.max(CUSTOM_CODE_MAX_CHARS).default(''),
  css: textSchema.max(CUSTOM_CODE_MAX_CHARS).default(''),
  js: textSchema.max(CUSTOM_CODE_MAX_CHARS).default(''),
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

/** The smallest document SPEC allows: the sections, `toast.enabled`, `progressBar.thresholds`. */
export const MINIMAL_WIDGET_DOCUMENT = {
  toast: { enabled: false },
  promoPopup: {},
  progressBar: { thresholds: [] },
  giftChoice: {},
  reminder: {},
  customCode: {},
} as const satisfies z.input<typeof widgetDocumentSchema>;

/**
 * What a shop that never saved its widgets gets: everything off, neutral texts and colours.
 * It is the minimal document with every default filled in, so the defaults live only above.
 */
export const DEFAULT_WIDGET_DOCUMENT: WidgetDocument = widgetDocumentSchema.parse(MINIMAL_WIDGET_DOCUMENT);
