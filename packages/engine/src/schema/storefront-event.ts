/**
 * SPEC "Ingest event": one storefront event as the storefront sends it and the server
 * validates it (`POST /events`, whose batch adds the shared context: src/events/schema.ts).
 * Written once here, where both sides read it: the storefront takes its type, the server
 * validates with it.
 */
import * as z from 'zod';
import { textSchema } from './text.ts';
import { variantGidSchema } from './gid.ts';

/** SPEC "Ingest event" `type`. */
export const STOREFRONT_EVENT_TYPES = ['gift_added', 'gift_removed', 'choice_shown', 'choice_selected'] as const;
export type StorefrontEventType = (typeof STOREFRONT_EVENT_TYPES)[number];

const id = (what: string) => textSchema.trim().min(1, `${what} is required`).max(64);

/** A storefront token (cart, visitor, session): trimmed, 1–255 characters. */
export const storefrontTokenSchema = textSchema.trim().min(1).max(255);

/** SPEC "Ingest event". Unknown keys are ignored so older servers accept newer storefronts. */
export const storefrontEventSchema = z.object({
  type: z.enum(STOREFRONT_EVENT_TYPES),
  campaignId: id('campaignId'),
  ruleId: id('ruleId'),
  variantId: variantGidSchema,
  cartToken: storefrontTokenSchema.optional().meta({ description: 'Platform cart token; omit when privacy settings forbid it' }),
});

export type StorefrontEvent = z.output<typeof storefrontEventSchema>;
