import * as z from 'zod';
import { conditionNodeSchema } from './condition-node.ts';
import { giftConfigSchema } from './gift-config.ts';
import { ruleOptionsSchema } from './rule-options.ts';

/** A rule as `GET /rules` delivers it: SPEC's Rule plus its campaign and schedule. */
export const payloadRuleSchema = z.object({
  id: z.string(),
  campaignId: z.string(),
  name: z.string().optional(),
  enabled: z.boolean().default(true),
  conditionTree: conditionNodeSchema,
  giftConfig: giftConfigSchema,
  options: ruleOptionsSchema,
  /** The campaign's schedule window; a rule outside it is skipped. */
  startAt: z.string().nullable().optional(),
  endAt: z.string().nullable().optional(),
});

/** An A/B experiment in engine shape: each variant names the one rule it applies. */
export const engineExperimentSchema = z.object({
  id: z.string(),
  campaignId: z.string(),
  variants: z.array(z.object({ id: z.string(), ruleId: z.string(), weight: z.number().min(0) })),
});

/**
 * How the matching rules of one campaign stack (issue 13): `all` (absent too) every one gives;
 * `highest_tier` only the campaign's highest (highest priority, then last in payload order).
 */
export const stackingSchema = z.enum(['all', 'highest_tier']);

/** SPEC's `shopSettings` of the rules payload; every field optional (absent = off). */
export const shopSettingsSchema = z.object({
  engine: z
    .object({
      runOnExpressCheckout: z.boolean().optional(),
      runOnCartSubmission: z.boolean().optional(),
      useDiscountedPrices: z.boolean().optional(),
      evaluationDelay: z.int().optional(),
      stacking: stackingSchema.optional().meta({ description: 'How the matching rules of one campaign stack: `all` or `highest_tier` (docs/promotions.md)' }),
    })
    .optional(),
  checkout: z
    .object({
      blockZeroValueCart: z.boolean().optional(),
      blockGiftOnlyCarts: z.boolean().optional(),
      stripZeroPriceItems: z.boolean().optional(),
      minOrderTotalCents: z.int().optional().meta({ description: 'Present only while the minimum-order-total guard is set' }),
      minOrderTotalMessage: z.string().optional().meta({ description: 'Present only while the minimum-order-total guard is set' }),
    })
    .optional(),
  data: z.object({ collectCartTokens: z.boolean().optional() }).optional(),
});

const { engine, checkout, data } = shopSettingsSchema.shape;

/**
 * `shopSettings` as the server delivers it: the same fields with every default filled in,
 * the minimum-order-total guard's two only while it is set (SPEC "Rules payload").
 */
export const resolvedShopSettingsSchema = z.object({
  engine: engine.unwrap().required(),
  checkout: checkout.unwrap().required({ blockZeroValueCart: true, blockGiftOnlyCarts: true, stripZeroPriceItems: true }),
  data: data.unwrap().required(),
});

/**
 * What the engine evaluates: SPEC's rules payload plus the shop's base currency, which
 * threshold resolution needs (CONTRACT: the base currency is the shop's `currency`).
 *
 * @example rulesPayloadSchema.parse(await (await fetch(`${base}/api/v1/rules`)).json())
 */
export const rulesPayloadSchema = z.object({
  rules: z.array(payloadRuleSchema),
  experiments: z.array(engineExperimentSchema).optional(),
  debugAllowed: z.boolean().optional(),
  shopSettings: shopSettingsSchema.optional(),
  baseCurrency: z.string(),
  /** Optional content version (e.g. the ETag): compiled rules are reused per version. */
  version: z.union([z.string(), z.number()]).optional(),
});

export type PayloadRule = z.output<typeof payloadRuleSchema>;
export type EngineExperiment = z.output<typeof engineExperimentSchema>;
export type ShopSettings = z.output<typeof shopSettingsSchema>;
export type ResolvedShopSettings = z.output<typeof resolvedShopSettingsSchema>;
export type RulesPayload = z.output<typeof rulesPayloadSchema>;
/** A rules payload as sent: defaults not yet applied, condition trees not yet checked. */
export type RulesPayloadInput = z.input<typeof rulesPayloadSchema>;
