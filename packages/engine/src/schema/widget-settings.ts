/**
 * Widget settings (SPEC "Widget settings", "PUT /widgets"): the one schema of the storefront
 * widgets, from which the server validates and stores them, the storefront script types what it
 * reads (type imports only: no zod in its bundle) and the admin's Widgets page builds its form
 * (each field's `title` is its label, its `description` the help under it).
 *
 * SPEC names only the sections, `toast.enabled` and `progressBar.thresholds[].amountCents`:
 * those are required; every other field has a default written beside it here, so a document
 * with only SPEC's fields is accepted and saved with the defaults filled in.
 *
 * Every field here has a visible effect in the storefront (issue 23: five settings were stored
 * and never read). A field removed from here stays readable in stored documents: they are read
 * with `storedWidgetDocumentSchema`, whose objects strip unknown keys, while a PUT body is strict
 * (`widgetDocumentSchema`: a misspelt key in a document replaced whole is a 400, not a silent
 * drop). Removed so far: `progressBar.thresholds[].label` and `.giftVariantId` (the bar's steps
 * come from the live rules). `giftChoice.showPrices`, removed while the catalog kept no prices,
 * is back since it keeps them: the storefront payload's `giftPrices` carries them.
 */
import * as z from 'zod';
import { textSchema } from './text.ts';

const text = (max: number) => textSchema.max(max);

/** A hex colour; the admin shows a colour field for it. */
export const hexColorSchema = textSchema.regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, 'Expected a hex colour such as #1a1a1a');
/** An http(s) URL or a path; the admin shows a URL field for it (empty is null). */
export const widgetUrlSchema = textSchema.max(2048).regex(/^(https?:\/\/|\/)/, 'Expected an http(s) URL or a path starting with /');
/** A text of several lines; the admin shows a multi-line field for it. */
export const multilineTextSchema = text(2000);

/** Each customCode field is stored exactly as sent; the cap only bounds the document. */
export const CUSTOM_CODE_MAX_CHARS = 100_000;

type ObjectOf = typeof z.object | typeof z.strictObject;

/** A locale as the platform names it (`request.locale.iso_code`): `fr`, `pt-BR`. */
export const widgetLocaleSchema = textSchema.regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/, 'Expected a locale such as fr or pt-BR');

/**
 * A section's `translations`: per locale, any of its shopper-facing `texts` in that language.
 * The storefront picks the page's locale (else its language: `pt` for `pt-BR`); a text missing
 * there is the section's own, the shop's default language.
 */
function translations<T extends Record<string, z.ZodType>>(object: ObjectOf, texts: T) {
  const fields = Object.fromEntries(Object.entries(texts).map(([key, schema]) => [key, schema.optional()])) as { [K in keyof T]: z.ZodOptional<T[K]> };
  // Both builders give the same output type; strictness is a runtime difference.
  return z.record(widgetLocaleSchema, (object as typeof z.object)(fields)).default({}).meta({ title: 'Translations' });
}

/**
 * The sections, built with `object` for every object inside: `z.strictObject` for what a client
 * sends, `z.object` (unknown keys stripped) for what was stored by an older version.
 */
function widgetSections(object: ObjectOf) {
  const toast = object({
    enabled: z.boolean().meta({ title: 'Show the toast' }),
    message: text(500).default('🎁 {{giftTitle}} was added to your cart').meta({ title: 'Toast message', description: '{{giftTitle}} is replaced by the gift’s name' }),
    position: z
      .enum(['top-left', 'top-center', 'top-right', 'bottom-left', 'bottom-center', 'bottom-right'])
      .default('bottom-right')
      .meta({ title: 'Toast position' }),
    durationMs: z.int().min(500).max(60_000).default(4000).meta({ title: 'Toast duration (ms)' }),
    backgroundColor: hexColorSchema.default('#111827').meta({ title: 'Toast background colour' }),
    textColor: hexColorSchema.default('#ffffff').meta({ title: 'Toast text colour' }),
    dismissLabel: text(100).default('Dismiss').meta({ title: 'Toast close button name', description: 'What screen readers say for its × button' }),
    translations: translations(object, { message: text(500), dismissLabel: text(100) }),
  }).meta({ title: 'Toast (a gift was added)' });

  const progressBar = object({
    enabled: z.boolean().default(false).meta({ title: 'Show the progress bar' }),
    placement: z
      .enum(['cart_drawer', 'cart_page', 'announcement_bar'])
      .default('cart_drawer')
      .meta({
        title: 'Progress bar placement',
        description: 'cart_drawer: in the theme’s progress bar block on every page; cart_page: that block on the cart page only; announcement_bar: across the top of every page',
      }),
    /**
     * SPEC names `thresholds[].amountCents`, so the API keeps accepting, storing and returning
     * it; the storefront draws the bar's steps from the live rules' `cart.subtotal_gte`
     * thresholds and their gifts (issue 23), and the admin does not show it.
     */
    thresholds: z.array(object({ amountCents: z.int().min(0) })).max(10, 'At most 10 thresholds'),
    message: text(500)
      .default('Spend {{remaining}} more to unlock your gift')
      .meta({ title: 'Progress message', description: '{{remaining}} is replaced by the amount left, {{gift}} by the next step’s gift' }),
    completedMessage: text(500).default('You unlocked a free gift!').meta({ title: 'Completed message' }),
    barColor: hexColorSchema.default('#16a34a').meta({ title: 'Bar colour' }),
    backgroundColor: hexColorSchema.default('#e5e7eb').meta({ title: 'Bar background colour' }),
    unknownGiftTitle: text(100)
      .default('a free gift')
      .meta({ title: 'Name of an unnamed gift', description: 'In {{gift}} and the steps, for a gift the catalog has no title for' }),
    choiceText: text(200)
      .default('one of {{gifts}}')
      .meta({ title: 'Words for a choice of gifts', description: '{{gifts}} is replaced by the gifts the shopper chooses one of, in {{gift}} and the steps' }),
    stepsLabel: text(100).default('Gift steps').meta({ title: 'Steps list name', description: 'What screen readers say for the list of a ladder’s steps under the bar' }),
    translations: translations(object, { message: text(500), completedMessage: text(500), unknownGiftTitle: text(100), choiceText: text(200), stepsLabel: text(100) }),
  }).meta({ title: 'Progress bar' });

  const promoPopup = object({
    enabled: z.boolean().default(false).meta({ title: 'Show the promo popup' }),
    trigger: z.enum(['page_load', 'exit_intent', 'add_to_cart']).default('page_load').meta({ title: 'Popup trigger' }),
    delaySeconds: z.int().min(0).max(600).default(5).meta({ title: 'Popup delay (seconds)' }),
    title: text(200).default('A free gift with your order').meta({ title: 'Popup title' }),
    body: multilineTextSchema.default('').meta({ title: 'Popup text' }),
    imageUrl: widgetUrlSchema.nullable().default(null).meta({ title: 'Popup image URL' }),
    ctaLabel: text(100).default('Shop now').meta({ title: 'Popup button label' }),
    ctaUrl: widgetUrlSchema.nullable().default(null).meta({ title: 'Popup button URL' }),
    closeLabel: text(100).default('Close').meta({ title: 'Popup close button label' }),
    showOncePerSession: z.boolean().default(true).meta({ title: 'Show once per session' }),
    translations: translations(object, { title: text(200), body: multilineTextSchema, ctaLabel: text(100), closeLabel: text(100) }),
  }).meta({ title: 'Promo popup' });

  const giftChoice = object({
    enabled: z.boolean().default(false).meta({ title: 'Show the gift choice' }),
    layout: z
      .enum(['modal', 'inline', 'drawer'])
      .default('modal')
      .meta({
        title: 'Gift choice layout',
        description: 'modal: a dialog in the middle; drawer: a panel along the right edge; inline: in the theme’s gift reminder block (a dialog where there is none)',
      }),
    title: text(200).default('Choose your free gift').meta({ title: 'Gift choice title' }),
    confirmLabel: text(100).default('Add gift').meta({ title: 'Confirm button label' }),
    allowDecline: z.boolean().default(true).meta({ title: 'Allow declining the gift' }),
    declineLabel: text(100).default('No thanks').meta({ title: 'Decline button label' }),
    showPrices: z
      .boolean()
      .default(false)
      .meta({ title: 'Show the gifts’ prices', description: 'Each gift’s usual price struck through, then the free label; only when the cart is in the shop’s currency' }),
    freeLabel: text(100).default('Free').meta({ title: 'Free label', description: 'After the struck price, when the prices are shown' }),
    translations: translations(object, { title: text(200), confirmLabel: text(100), declineLabel: text(100), freeLabel: text(100) }),
  }).meta({ title: 'Gift choice' });

  const reminder = object({
    enabled: z.boolean().default(false).meta({ title: 'Show the reminder' }),
    /** Reminds a customer who qualifies but has not chosen or added the gift yet. */
    message: text(500).default('You qualify for a free gift. Don\u2019t forget to choose it!').meta({ title: 'Reminder message' }),
    buttonLabel: text(100).default('Choose gift').meta({ title: 'Reminder button label' }),
    showInCartDrawer: z
      .boolean()
      .default(true)
      .meta({ title: 'Show in the cart drawer', description: 'In the theme’s gift reminder block; off, or without the block: a bar at the bottom of the page' }),
    showOnProductPage: z.boolean().default(false).meta({ title: 'Show on product pages' }),
    delaySeconds: z.int().min(0).max(600).default(0).meta({ title: 'Reminder delay (seconds)' }),
    regionLabel: text(100).default('Free gift reminder').meta({ title: 'Reminder name', description: 'What screen readers say for the reminder’s region' }),
    translations: translations(object, { message: text(500), buttonLabel: text(100), regionLabel: text(100) }),
  }).meta({ title: 'Reminder' });

  const customCode = object({
    html: textSchema.max(CUSTOM_CODE_MAX_CHARS).default(''),
    css: textSchema.max(CUSTOM_CODE_MAX_CHARS).default(''),
    js: textSchema.max(CUSTOM_CODE_MAX_CHARS).default(''),
  });

  // In the order the admin shows them.
  return { toast, progressBar, promoPopup, giftChoice, reminder, customCode };
}

/** The sections as a client sends them: every object strict. */
export const widgetSectionSchemas = widgetSections(z.strictObject);

/** The document as a PUT sends it and as it is stored (without `_version`, in its own column). */
export const widgetDocumentSchema = z.strictObject(widgetSectionSchemas);
/** A stored document, perhaps saved before a setting was removed: unknown keys are dropped. */
export const storedWidgetDocumentSchema = z.object(widgetSections(z.object));
export type WidgetDocument = z.output<typeof widgetDocumentSchema>;

/** The sections a merchant switches on and off (all but `customCode`). */
export type WidgetSectionKey = Exclude<keyof WidgetDocument, 'customCode'>;
export type ToastSettings = WidgetDocument['toast'];
export type PromoPopupSettings = WidgetDocument['promoPopup'];
export type ProgressBarSettings = WidgetDocument['progressBar'];
export type GiftChoiceSettings = WidgetDocument['giftChoice'];
export type ReminderSettings = WidgetDocument['reminder'];
export type CustomCode = WidgetDocument['customCode'];

const versionField = z.int().min(0).meta({ description: 'Stamped by the server on every save; 0 before the first' });

/** Widget settings as GET /widgets and PUT /widgets return them. */
export const widgetSettingsSchema = z.object({ _version: versionField, ...widgetSectionSchemas });
export type WidgetSettings = z.output<typeof widgetSettingsSchema>;

/** Widget settings as the rules payload delivers them: `customCode` only on the Scale plan. */
export const deliveredWidgetsSchema = z.object({ _version: versionField, ...widgetSectionSchemas, customCode: widgetSectionSchemas.customCode.optional() });
export type DeliveredWidgets = z.output<typeof deliveredWidgetsSchema>;

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
