/** The response of GET /rules (SPEC "Rules payload"), for the OpenAPI document. */
import { deliveredWidgetsSchema, engineExperimentSchema, resolvedShopSettingsSchema } from '@gcrs/engine';
import { z } from 'zod';
import { ruleResponseSchema } from '../campaigns/schemas.ts';

const timestamp = z.iso.datetime().meta({ example: '2026-01-31T09:30:00.000Z' });

export const payloadRuleResponseSchema = ruleResponseSchema.extend({
  campaignId: z.string(),
  startAt: timestamp.nullable().meta({ description: "The campaign's schedule start; the rule applies from then" }),
  endAt: timestamp.nullable().meta({ description: "The campaign's schedule end; the rule no longer applies from then" }),
});

export const rulesPayloadResponseSchema = z.object({
  rules: z.array(payloadRuleResponseSchema).meta({ description: 'The enabled rules of live campaigns inside their schedule window' }),
  experiments: z
    .array(engineExperimentSchema)
    .optional()
    .meta({ description: 'Running A/B experiments in engine shape; the key is omitted when none runs' }),
  debugAllowed: z.boolean().meta({ description: 'False for API keys; true when the operator reads it through the admin API' }),
  shopSettings: resolvedShopSettingsSchema,
  widgets: deliveredWidgetsSchema.meta({ description: 'Widget settings; `customCode` only on the Scale plan' }),
  baseCurrency: z.string().meta({ description: "The shop's currency (ISO 4217), which `value` thresholds are in" }),
});
