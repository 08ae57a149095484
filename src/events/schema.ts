/**
 * SPEC "POST /events": one batch of storefront events plus the storefront context they
 * happened in. This one schema is the contract: the route validates with it, the OpenAPI
 * document is written from it, and a storefront proxy imports it to check before forwarding.
 */
import { STORABLE_TEXT_PATTERN, TEXT_ISSUE, storefrontEventSchema, storefrontTokenSchema, textSchema } from '@gcrs/engine';
import { z } from 'zod';
import { timestampTextSchema } from '../http/timestamp.ts';

export const MAX_EVENTS_PER_BATCH = 100;

// z.url takes NUL and lone surrogates, which PostgreSQL cannot store.
const storableUrl = z
  .url({ protocol: /^https?$/, error: 'Expected an http(s) URL' })
  .max(2048)
  .regex(STORABLE_TEXT_PATTERN, TEXT_ISSUE);
const token = storefrontTokenSchema;

/**
 * The batch: `events` (1–100) and the storefront context shared by every event of it.
 * Context fields are all optional; a `cartToken` on an event wins over the context's.
 */
export const storefrontEventBatchSchema = z.object({
  events: z
    .array(storefrontEventSchema)
    .min(1, 'events must hold at least one event')
    .max(MAX_EVENTS_PER_BATCH, `At most ${MAX_EVENTS_PER_BATCH} events per batch`),
  cartToken: token.optional().meta({ description: 'Cart token for every event of the batch that has none' }),
  visitorId: token.optional().meta({ description: 'Stable anonymous visitor id (the one used for A/B assignment)' }),
  sessionId: token.optional(),
  customerId: z.string().regex(/^\d{1,32}$/, 'Expected a numeric customer id (digits only)').optional(),
  pageUrl: storableUrl.optional(),
  referrer: storableUrl.optional(),
  locale: z
    .string()
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'Expected a BCP 47 locale such as en-US')
    .max(35)
    .optional(),
  currency: z.string().regex(/^[A-Z]{3}$/, 'Expected an ISO 4217 currency code such as USD').optional(),
  country: z.string().regex(/^[A-Z]{2}$/, 'Expected an ISO 3166 country code such as US').optional(),
  market: textSchema.trim().min(1).max(255).optional().meta({ description: 'Active market handle' }),
  /** When the storefront recorded the batch; stored as sent, the server keeps its own receivedAt. */
  sentAt: timestampTextSchema.optional(),
});

export type StorefrontEventBatch = z.output<typeof storefrontEventBatchSchema>;

export const ingestResponseSchema = z.object({
  ok: z.literal(true),
  count: z.int().min(0).meta({ description: 'Events accepted; events naming another shop’s campaign or rule are dropped' }),
});
