/**
 * Campaign and rule shapes of SPEC "Resources" and the campaign endpoints: one Zod schema
 * each, used to validate requests and to write the OpenAPI document.
 */
import { budgetSchema, conditionNodeSchema, giftConfigSchema, ruleOptionsSchema, textSchema } from '@gcrs/engine';
import { z } from 'zod';
import { timestampInputSchema } from '../http/timestamp.ts';

const timestampOutput = z.iso.datetime().meta({ example: '2026-01-31T09:30:00.000Z' });

const nameSchema = textSchema.trim().min(1, 'A name is required').max(255);

/** A rule as POST /campaigns/import takes it: `enabled` and `options` have defaults. */
export const importRuleSchema = z.object({
  name: nameSchema,
  enabled: z.boolean().default(true),
  conditionTree: conditionNodeSchema,
  giftConfig: giftConfigSchema,
  options: ruleOptionsSchema,
});

/** A rule in a PUT body: every field required (SPEC "PUT"), `id` names an existing rule. */
export const putRuleSchema = z.object({
  id: textSchema.min(1).optional(),
  name: nameSchema,
  enabled: z.boolean(),
  conditionTree: conditionNodeSchema,
  giftConfig: giftConfigSchema,
  options: ruleOptionsSchema.unwrap(),
});

type Window = { startAt: Date | null; endAt: Date | null };
const windowIsOrdered = (value: Window) => value.startAt === null || value.endAt === null || value.endAt > value.startAt;
const windowIssue = { message: 'endAt must be after startAt', path: ['endAt'] };

/** A campaign's gift budget (docs/promotions.md "Budgets"): every rule of it counts against it. */
const campaignBudgetSchema = budgetSchema.meta({
  description: 'At most maxGifts gift units of all the campaign\'s rules per window; once spent every rule of it leaves GET /rules',
});

export const importCampaignSchema = z
  .object({
    name: nameSchema,
    enabled: z.boolean().default(false),
    isDraft: z.boolean().default(false),
    startAt: timestampInputSchema.nullable().default(null),
    endAt: timestampInputSchema.nullable().default(null),
    budget: campaignBudgetSchema.nullable().default(null),
    rules: z.array(importRuleSchema).default([]),
  })
  .refine(windowIsOrdered, windowIssue);

export const MAX_IMPORT_CAMPAIGNS = 50;

export const importBodySchema = z.object({
  campaigns: z
    .array(importCampaignSchema)
    .min(1, 'campaigns must hold at least one campaign')
    .max(MAX_IMPORT_CAMPAIGNS, `At most ${MAX_IMPORT_CAMPAIGNS} campaigns per import`),
});

/** PUT body: the GET response's `campaign`; server-set fields (id, timestamps, experiment) are ignored. */
export const putCampaignSchema = z
  .object({
    name: nameSchema,
    enabled: z.boolean(),
    isDraft: z.boolean(),
    startAt: timestampInputSchema.nullable(),
    endAt: timestampInputSchema.nullable(),
    // PUT replaces: a body without it leaves the campaign without a budget.
    budget: campaignBudgetSchema
      .nullable()
      .optional()
      .transform((value) => value ?? null),
    rules: z.array(putRuleSchema),
  })
  .refine(windowIsOrdered, windowIssue);

export type ImportCampaign = z.output<typeof importCampaignSchema>;
export type PutCampaign = z.output<typeof putCampaignSchema>;
export type RuleInput = z.output<typeof importRuleSchema> & { id?: string | undefined };

const booleanText = z.enum(['true', 'false']).transform((text) => text === 'true');

export const listQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1).meta({ description: '1-indexed page, default 1' }),
  perPage: z.coerce
    .number()
    .int()
    .min(1)
    .default(50)
    .transform((n) => Math.min(n, 100))
    .meta({ description: 'Page size, default 50; values above 100 are clamped to 100' }),
  enabled: booleanText.optional().meta({ description: 'Filter by enabled state: true or false' }),
});

export const campaignIdParamsSchema = z.object({ id: textSchema.min(1) });

// ---- responses ----

export const ruleResponseSchema = z.object({
  id: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  conditionTree: conditionNodeSchema,
  giftConfig: giftConfigSchema,
  options: ruleOptionsSchema.unwrap(),
  createdAt: timestampOutput,
  updatedAt: timestampOutput,
});

const campaignFields = {
  id: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  isDraft: z.boolean(),
  startAt: timestampOutput.nullable(),
  endAt: timestampOutput.nullable(),
  createdAt: timestampOutput,
  updatedAt: timestampOutput,
};

export const campaignListItemSchema = z.object({ ...campaignFields, rulesCount: z.int() });

export const experimentResponseSchema = z.object({
  id: z.string(),
  status: z.enum(['running', 'stopped', 'concluded']),
  primaryMetric: z.enum(['conversion_rate', 'average_order_value', 'revenue_per_visitor']),
  startedAt: timestampOutput,
  stoppedAt: timestampOutput.nullable(),
  concludedAt: timestampOutput.nullable(),
  winnerVariantId: z.string().nullable(),
  variants: z.array(z.object({ id: z.string(), name: z.string(), ruleId: z.string(), weight: z.int() })),
});

const budgetUsageSchema = z.object({
  used: z.int().meta({ description: 'Gift units granted in the current window' }),
  maxGifts: z.int(),
  window: budgetSchema.shape.window.unwrap(),
  windowStart: z.iso.date().meta({ description: "The current window's first local date (1970-01-01 for total)" }),
  spent: z.boolean().meta({ description: 'used ≥ maxGifts: left out of GET /rules and the checkout until the window ends or maxGifts is raised' }),
});

export const campaignResponseSchema = z.object({
  ...campaignFields,
  budget: campaignBudgetSchema.optional().meta({ description: 'Present only when the campaign has a budget' }),
  rules: z.array(ruleResponseSchema),
  experiment: experimentResponseSchema.nullable(),
  budgetUsage: z
    .object({
      campaign: budgetUsageSchema.nullable(),
      rules: z.record(z.string(), budgetUsageSchema).meta({ description: 'By rule id, for the rules with a budget' }),
    })
    .optional()
    .meta({ description: 'Admin and merchant admin only, when the campaign or a rule of it has a budget: what the current windows used' }),
});

export const listResponseSchema = z.object({
  campaigns: z.array(campaignListItemSchema),
  meta: z.object({ total: z.int(), page: z.int(), perPage: z.int() }),
});
export const importResponseSchema = z.object({ imported: z.int(), campaignIds: z.array(z.string()) });
export const singleResponseSchema = z.object({ campaign: campaignResponseSchema });
export const okResponseSchema = z.object({ ok: z.literal(true) });
