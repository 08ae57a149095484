import * as z from 'zod';
import { MAX_PRIORITY } from './literals.ts';
import { RULE_OPTION_DEFAULTS_VALUES } from './rule-option-defaults.ts';
import { textSchema } from './text.ts';

/** The options a rule gets when it (or one of its fields) is left out. */
export const RULE_OPTION_DEFAULTS = RULE_OPTION_DEFAULTS_VALUES;

/**
 * How a rule's gift is added and discounted. Every field has a default, and a missing
 * options object becomes {@link RULE_OPTION_DEFAULTS}. `discountValue` is a percentage
 * (0..100, 100 = free) or a fixed amount in minor units, per `discountType`. `priority` and
 * `exclusive` (issue 13, stacking) have no default: absent means 0 and false, and a stored
 * rule without them reads back without them.
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
