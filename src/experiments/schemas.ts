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
