import * as z from 'zod';
import { BUDGET_WINDOWS, LOCALE_PATTERN, MAX_BUDGET_GIFTS, MAX_DISCOUNT_TITLE_CHARS, MAX_PER_CUSTOMER, MAX_PRIORITY, MAX_TITLE_TRANSLATIONS } from './literals.ts';
import { RULE_OPTION_DEFAULTS_VALUES } from './rule-option-defaults.ts';
import { textSchema } from './text.ts';

/**
 * A gift budget (issue 13, budgets; docs/promotions.md "Budgets"): at most `maxGifts` gift units
 * per `window` (the shop's local day, ISO week from Monday, calendar month, or `total` — one
 * window forever, the default). The server counts it at order intake and leaves a spent rule
 * out of the rules payload; the engine itself never reads it. Shared by `options.budget` and a
 * campaign's `budget`.
 *
 * @example budgetSchema.parse({ maxGifts: 100 }) // { maxGifts: 100, window: 'total' }
 */
export const budgetSchema = z.object({
  maxGifts: z.int().min(1).max(MAX_BUDGET_GIFTS).meta({ description: `Gift units the window may grant, 1..${MAX_BUDGET_GIFTS}` }),
  window: z
    .enum(BUDGET_WINDOWS)
    .default('total')
    .meta({ description: "`day`, `week` (ISO, from Monday) or `month` in the shop's timezone, or `total` (forever, the default)" }),
});

export type Budget = z.output<typeof budgetSchema>;

/**
 * `options.discountTitleTranslations` (issue 23, translations): the checkout discount's title
 * per locale (`fr`, `pt-BR`), at most MAX_TITLE_TRANSLATIONS of them, each 1..255 characters.
 * The checkout picks the buyer's locale, else its language (`pt` for `pt-BR`), else
 * `discountTitle` (docs/checkout-function.md "The title in the buyer's language"). Two keys
 * that differ only in case would be the same locale there, so they are refused.
 *
 * @example discountTitleTranslationsSchema.parse({ fr: 'Cadeau offert' })
 */
export const discountTitleTranslationsSchema = z
  .record(textSchema.regex(LOCALE_PATTERN, 'Expected a locale such as fr or pt-BR'), textSchema.min(1).max(MAX_DISCOUNT_TITLE_CHARS))
  .superRefine((translations, ctx) => {
    const locales = Object.keys(translations);
    if (locales.length > MAX_TITLE_TRANSLATIONS) {
      ctx.addIssue({ code: 'too_big', origin: 'object', maximum: MAX_TITLE_TRANSLATIONS, inclusive: true, input: translations, message: `At most ${MAX_TITLE_TRANSLATIONS} translations` });
    }
    const seen = new Set<string>();
    for (const locale of locales) {
      const folded = locale.toLowerCase();
      if (seen.has(folded)) ctx.addIssue({ code: 'custom', input: locale, path: [locale], message: 'The same locale twice (locales ignore case)' });
      seen.add(folded);
    }
  });

/** The options a rule gets when it (or one of its fields) is left out. */
export const RULE_OPTION_DEFAULTS = RULE_OPTION_DEFAULTS_VALUES;

/**
 * How a rule's gift is added and discounted. Every field has a default, and a missing
 * options object becomes {@link RULE_OPTION_DEFAULTS}. `discountValue` is a percentage
 * (0..100, 100 = free) or a fixed amount in minor units, per `discountType`. `priority` and
 * `exclusive` (issue 13, stacking) have no default: absent means 0 and false, and a stored
 * rule without them reads back without them. Nor has `maxPerCustomer` (issue 13, per-customer
 * limits): absent means no limit. Nor has `lockQuantity` (issue 23): absent means locked for an
 * auto-added gift and not for a chosen one ({@link locksQuantity}).
 *
 * @example ruleOptionsSchema.parse(undefined) // RULE_OPTION_DEFAULTS
 * @example ruleOptionsSchema.parse({ discountValue: 50 }).discountType // 'percentage'
 */
export const ruleOptionsSchema = z
  .object({
    actionType: z.enum(['auto_add', 'customer_choice']).default(RULE_OPTION_DEFAULTS.actionType),
    discountMethod: z.enum(['automatic']).default(RULE_OPTION_DEFAULTS.discountMethod),
    discountType: z
      .enum(['percentage', 'fixed_amount'])
      .default(RULE_OPTION_DEFAULTS.discountType),
    discountValue: z.number().min(0).default(RULE_OPTION_DEFAULTS.discountValue),
    discountTitle: textSchema.default(RULE_OPTION_DEFAULTS.discountTitle),
    discountTitleTranslations: discountTitleTranslationsSchema
      .optional()
      .meta({ description: `discountTitle per locale (fr, pt-BR), at most ${MAX_TITLE_TRANSLATIONS}; the checkout shows the buyer's locale, else its language, else discountTitle; absent = none` }),
    priority: z
      .int()
      .min(-MAX_PRIORITY)
      .max(MAX_PRIORITY)
      .optional()
      .meta({ description: 'Stacking order, higher first; absent = 0. Ties: payload order' }),
    exclusive: z
      .boolean()
      .optional()
      .meta({ description: 'When it gives, every rule after it (lower priority, or equal priority later in the payload) gives nothing; absent = false' }),
    budget: budgetSchema
      .optional()
      .meta({ description: 'At most maxGifts gift units of this rule per window; once spent the rule leaves GET /rules until the window ends or the budget is raised' }),
    maxPerCustomer: z
      .int()
      .min(1)
      .max(MAX_PER_CUSTOMER)
      .optional()
      .meta({
        description:
          'At most this many redemptions per customer (orders that carried a gift line of the rule, lifetime); a customer who has reached it, or an unknown (anonymous) customer, gets nothing from the rule; absent = no limit',
      }),
    lockQuantity: z
      .boolean()
      .optional()
      .meta({
        description:
          'Gift lines carry `_svc_lock_quantity: "true"` and the storefront puts a line whose quantity the shopper changed back to the gift\'s quantity; absent = true for `auto_add`, false for `customer_choice`',
      }),
  })
  .superRefine((options, ctx) => {
    if (options.discountType === 'percentage' && options.discountValue > 100) {
      ctx.addIssue({
        code: 'too_big',
        origin: 'number',
        maximum: 100,
        inclusive: true,
        input: options.discountValue,
        path: ['discountValue'],
        message: 'A percentage discount is at most 100',
      });
    }
  })
  .default({ ...RULE_OPTION_DEFAULTS });

export type RuleOptions = z.output<typeof ruleOptionsSchema>;
