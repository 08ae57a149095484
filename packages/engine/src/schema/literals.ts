/**
 * Constants the schemas share with the evaluator and the planner. They live apart from the
 * Zod schemas so that pure evaluation (the storefront bundle) does not pull zod in.
 */

/** `_otp` is SPEC's literal for "one-time purchase" (a line without a selling plan). */
export const ONE_TIME_PURCHASE = '_otp';

/**
 * Text every store can keep: no U+0000 (PostgreSQL's `text` and `jsonb` refuse it: SQLSTATE
 * 22021 and 22P05) and no lone UTF-16 surrogate (it has no UTF-8 encoding). Written as a pattern
 * over UTF-16 code units so it runs the same in Node, browsers and the checkout's QuickJS, and
 * shows up as `pattern` in the OpenAPI document.
 */
// eslint-disable-next-line no-control-regex -- U+0000 is exactly the character this pattern refuses
export const STORABLE_TEXT_PATTERN = /^(?:[^\u0000\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$/;

export const TEXT_ISSUE = 'Text must not contain NUL characters or unpaired UTF-16 surrogates';

// Text without NUL and without any surrogate is storable: one scan for a character class, about
// twice as fast as the pattern's alternation per character, which then only runs on text that
// has a surrogate (emoji) or a NUL. Every text field of a request is checked, so it adds up.
// eslint-disable-next-line no-control-regex -- U+0000 is one of the characters it looks for
export const MAYBE_UNSTORABLE = /[\u0000\uD800-\uDFFF]/;

/** True when `value` is text the stores can keep (see {@link STORABLE_TEXT_PATTERN}). */
export const isStorableText = (value: string): boolean => !MAYBE_UNSTORABLE.test(value) || STORABLE_TEXT_PATTERN.test(value);

/** A product variant gid, as `variantGidSchema` checks it. */
export const VARIANT_GID_PATTERN = /^gid:\/\/[A-Za-z0-9._-]+\/ProductVariant\/\d+$/;

/** The most gift sets a repeatable gift (`giftConfig.per.max`) gives, whatever the cart. */
export const MAX_GIFT_SETS = 100;

/** `options.priority` is an integer in -MAX_PRIORITY..MAX_PRIORITY. */
export const MAX_PRIORITY = 1_000_000;

/** A budget (`options.budget.maxGifts`, a campaign's `budget.maxGifts`) is an integer 1..MAX_BUDGET_GIFTS gift units. */
export const MAX_BUDGET_GIFTS = 1_000_000_000;

/** The windows a budget counts in (issue 13, budgets): a local day, ISO week, calendar month, or forever. */
export const BUDGET_WINDOWS = ['day', 'week', 'month', 'total'] as const;

/** `options.maxPerCustomer` (issue 13, per-customer limits) is an integer in 1..MAX_PER_CUSTOMER. */
export const MAX_PER_CUSTOMER = 1_000_000;

/**
 * A locale as the platform names it (`request.locale.iso_code`, and the checkout's
 * `localization.language` as `pt-BR` for `PT_BR`): a language, then optional subtags.
 */
export const LOCALE_PATTERN = /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/;

/** `options.discountTitleTranslations` holds at most this many locales, each title at most MAX_DISCOUNT_TITLE_CHARS. */
export const MAX_TITLE_TRANSLATIONS = 20;

/** The platform's limit on a discount's title (a translated `message` at checkout). */
export const MAX_DISCOUNT_TITLE_CHARS = 255;
