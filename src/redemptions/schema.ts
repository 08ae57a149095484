/** SPEC "GET /redemptions" shapes. */
import { z } from 'zod';

export const redemptionsQuerySchema = z.object({
  customerId: z
    .string({ error: 'customerId is required' })
    .regex(/^\d{1,32}$/, 'customerId must be a numeric platform customer id (digits only)')
    .meta({ description: 'Platform customer id, digits only' }),
});

export const redemptionSchema = z.object({
  ruleId: z.string(),
  campaignId: z.string(),
  count: z.int().min(1),
  lastRedeemedAt: z.iso.datetime().meta({ example: '2026-01-31T09:30:00.000Z' }),
});

export const redemptionsResponseSchema = z.object({ redemptions: z.array(redemptionSchema) });
