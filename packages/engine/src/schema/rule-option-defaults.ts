/** The options a rule gets when it (or one of its fields) is left out (zod-free, see literals.ts). */
export const RULE_OPTION_DEFAULTS_VALUES = {
  actionType: 'auto_add',
  discountMethod: 'automatic',
  discountType: 'percentage',
  discountValue: 100,
  discountTitle: 'Free gift',
} as const;
