/** A/B experiment shapes of CONTRACT "Admin API": start, stop and conclude bodies and params. */
import { textSchema } from '@gcrs/engine';
import { z } from 'zod';

export const PRIMARY_METRICS = ['conversion_rate', 'average_order_value', 'revenue_per_visitor'] as const;
export const EXPERIMENT_STATUSES = ['running', 'stopped', 'concluded'] as const;
export type ExperimentStatus = (typeof EXPERIMENT_STATUSES)[number];

export const MAX_VARIANTS = 10;
export const MAX_WEIGHT = 10_000;

const variantInputSchema = z.strictObject({
  name: textSchema.trim().min(1, 'A name is required').max(100),
  ruleId: textSchema.min(1),
  weight: z.int('weight must be a positive integer').min(1, 'weight must be a positive integer').max(MAX_WEIGHT),
});

/** POST …/experiments: at least two variants, each naming a different rule and name. */
export const startExperimentBodySchema = z
  .strictObject({
    primaryMetric: z.enum(PRIMARY_METRICS),
    variants: z
      .array(variantInputSchema)
      .min(2, 'An experiment needs at least 2 variants')
      .max(MAX_VARIANTS, `At most ${MAX_VARIANTS} variants`),
  })
  .superRefine((body, ctx) => {
    for (const field of ['ruleId', 'name'] as const) {
      const seen = new Set<string>();
      for (const [index, variant] of body.variants.entries()) {
        if (seen.has(variant[field])) {
          ctx.addIssue({ code: 'custom', message: `Each variant needs its own ${field}`, path: ['variants', index, field] });
        }
        seen.add(variant[field]);
      }
    }
  });
export type StartExperimentBody = z.output<typeof startExperimentBodySchema>;

export const concludeExperimentBodySchema = z.strictObject({ winnerVariantId: textSchema.min(1) });

// The shop comes from the mount (admin path or the app's session), never from these params.
export const campaignParamsSchema = z.object({ campaignId: textSchema.min(1) });
export const experimentParamsSchema = campaignParamsSchema.extend({ experimentId: textSchema.min(1) });

const money = z.number().meta({ description: 'Decimal units of the shop base currency' });
const share = z.number().min(0).max(1);

/** What an experiment takes away, in words (experimentAudienceWarnings of the engine). */
export const audienceWarningSchema = z.object({
  code: z.enum(['different_audiences', 'holdout']),
  message: z.string(),
  ruleIds: z.array(z.string()),
});

/** GET …/experiments/:experimentId/results (docs/merchant-admin.md "Experiments"). */
export const experimentResultsSchema = z.object({
  experimentId: z.string(),
  status: z.enum(EXPERIMENT_STATUSES),
  primaryMetric: z.enum(PRIMARY_METRICS),
  currency: z.string(),
  from: z.string().meta({ description: 'The window: the experiment’s start …' }),
  to: z.string().meta({ description: '… to its stop, or now while it runs' }),
  variants: z.array(
    z.object({
      variantId: z.string(),
      name: z.string(),
      ruleId: z.string(),
      weight: z.int(),
      visitors: z.int().meta({ description: 'Distinct visitor ids of the shop’s storefront events in the window, assigned to this variant by the storefront’s hash' }),
      giftAdds: z.int().meta({ description: '`gift_added` events of the variant’s rule' }),
      orders: z.int().meta({ description: 'Orders with a gift line of the variant’s rule' }),
      revenue: money,
      conversionRate: share.nullable().meta({ description: 'orders / visitors (at most 1); null without visitors' }),
      revenuePerVisitor: money.nullable(),
      averageOrderValue: money.nullable(),
      pValueVsLeader: share.nullable().meta({ description: 'Two-sided p-value of the primary metric against the leader; null for the leader or without data' }),
    }),
  ),
  leader: z
    .object({
      variantId: z.string(),
      significant: z.boolean().meta({ description: 'pValue < threshold' }),
      pValue: share.nullable().meta({ description: 'The largest p-value of the leader against the other variants' }),
      threshold: share.meta({ description: '0.05 divided by the number of comparisons (Bonferroni)' }),
    })
    .nullable()
    .meta({ description: 'The single best variant on the primary metric; null on a tie or without data' }),
  sampleSize: z
    .object({
      alpha: share,
      power: share,
      minimumDetectableEffect: share.meta({ description: 'Relative change of the runner-up’s value to detect (0.1 = 10 %)' }),
      unit: z.enum(['visitors', 'orders']),
      neededPerVariant: z.int().nullable(),
      remainingPerVariant: z.int().nullable(),
    })
    .nullable(),
  warnings: z.array(audienceWarningSchema),
});
