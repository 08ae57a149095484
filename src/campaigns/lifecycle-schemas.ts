/** Request and response shapes of the lifecycle routes (SPEC "POST /campaigns/:id/enable|disable|schedule"). */
import { z } from 'zod';
import { timestampInputSchema } from '../http/timestamp.ts';

const timestampOutput = z.iso.datetime().meta({ example: '2026-01-31T09:30:00.000Z' });

export const enableQuerySchema = z.object({
  force: z
    .enum(['1', 'true', '0', 'false'])
    .optional()
    .transform((value) => value === '1' || value === 'true')
    .meta({ description: '`1` enables despite health warnings' }),
});

// z.iso.datetime checks the calendar too: `2026-02-30T00:00:00Z` is rejected.
const scheduleTimestamp = timestampInputSchema.nullable();

export const scheduleBodySchema = z
  .object({
    startAt: scheduleTimestamp.optional().meta({ description: 'When the campaign starts; null clears it' }),
    endAt: scheduleTimestamp.optional().meta({ description: 'When the campaign ends; null clears it' }),
  })
  .refine((body) => body.startAt !== undefined || body.endAt !== undefined, {
    message: 'Send startAt, endAt or both (null clears a value)',
  })
  .refine((body) => !body.startAt || !body.endAt || body.endAt > body.startAt, {
    message: 'endAt must be after startAt',
    path: ['endAt'],
  });

export type ScheduleBody = z.output<typeof scheduleBodySchema>;

export const healthWarningSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('gift_inventory'),
    ruleId: z.string(),
    variantId: z.string().meta({ description: 'Numeric id' }),
    variantGid: z.string(),
    displayName: z.string(),
    productTitle: z.string(),
    inventoryQuantity: z.int(),
    inventoryPolicy: z.string(),
    level: z.enum(['out_of_stock', 'low_stock']),
  }),
  z.object({
    kind: z.literal('gift_status'),
    ruleId: z.string(),
    variantId: z.string(),
    variantGid: z.string(),
    displayName: z.string().nullable(),
    productTitle: z.string().nullable(),
    status: z.enum(['draft', 'archived', 'deleted']),
    inCatalog: z.boolean().meta({ description: 'False when the catalog has no such variant (`status` is then `deleted`)' }),
  }),
  z.object({
    kind: z.literal('trigger_status'),
    ruleId: z.string(),
    target: z.enum(['product', 'variant']),
    productId: z.string().nullable(),
    productGid: z.string().nullable(),
    productTitle: z.string().nullable(),
    variantId: z.string().nullable(),
    variantGid: z.string().nullable(),
    status: z.enum(['draft', 'archived', 'deleted']),
    inCatalog: z.boolean().meta({ description: 'False when the catalog has no such product or variant (`status` is then `deleted`)' }),
  }),
  z.object({
    kind: z.literal('checkout_config_size'),
    bytes: z.int().meta({ description: "Bytes of the shop's checkout function configuration with this campaign live" }),
    limit: z.int().meta({ description: "The platform's limit per metafield (10,000)" }),
    metafields: z.int().meta({ description: 'How many metafields the checkout function reads its configuration from (2)' }),
  }),
  z.object({
    kind: z.literal('checkout_input_size'),
    bytes: z.int().meta({ description: "Estimated bytes of the checkout function's input for a cart of `lines` lines with this campaign live" }),
    limit: z.int().meta({ description: "The platform's limit on a function's input (128,000)" }),
    lines: z.int().meta({ description: 'The cart lines the estimate is for (200, the most the limit is given for)' }),
    collections: z.int().meta({ description: 'Collections the live rules name, each asked of every cart line' }),
  }),
  z.object({
    kind: z.literal('checkout_excluded'),
    ruleId: z.string(),
    reason: z.enum(['discount_code_condition', 'market_condition']).meta({
      description: "What the checkout function cannot check: discount codes are not in its input, and markets' input field is deprecated (use a country condition)",
    }),
  }),
]);

export const healthWarningsErrorSchema = z.object({
  error: z.literal('health_warnings'),
  warnings: z.array(healthWarningSchema),
  message: z.string(),
});

export const enableResponseSchema = z.object({
  ok: z.literal(true),
  campaign: z.object({ id: z.string(), enabled: z.literal(true), isDraft: z.literal(false) }),
});
export const disableResponseSchema = z.object({
  ok: z.literal(true),
  campaign: z.object({ id: z.string(), enabled: z.literal(false) }),
});
export const scheduleResponseSchema = z.object({
  ok: z.literal(true),
  campaign: z.object({ id: z.string(), startAt: timestampOutput.nullable(), endAt: timestampOutput.nullable() }),
});
