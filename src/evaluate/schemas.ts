/**
 * Request and response shapes of POST /evaluate and the admin simulator (CONTRACT
 * "Evaluation"). The request is the engine's own EvaluationContext schema, so the server
 * accepts exactly what the storefront library evaluates.
 */
import { MAX_PER_CUSTOMER, acceptEvaluationContext, evaluationContextSchema, textSchema } from '@gcrs/engine';
import type { EvaluationContext, KnownCollections } from '@gcrs/engine';
import { z } from 'zod';
import { importCampaignSchema } from '../campaigns/schemas.ts';
import { conditionTraceSchema } from '../http/condition-trace-schema.ts';
import { timestampInputSchema } from '../http/timestamp.ts';
import { MAX_CART_LINES } from './limits.ts';

/**
 * The engine's EvaluationContext with the server's bound on lines (the library has none: a
 * storefront evaluates its own cart). Checked after the parse, whose work the body limit bounds.
 */
const boundedContextSchema = evaluationContextSchema.check(
  z.refine((context) => context.cart.lines.length <= MAX_CART_LINES, {
    message: `Too many cart lines: at most ${MAX_CART_LINES}`,
    path: ['cart', 'lines'],
  }),
);

/** CONTRACT: "Its body is an EvaluationContext plus an optional `visitorId`". */
export const evaluateBodySchema = boundedContextSchema;

/**
 * The route's shortcut past {@link evaluateBodySchema} (shop-routes.ts `fastBody`): the engine's
 * acceptEvaluationContext with the same bound on lines; undefined leaves the body to the schema.
 * `known` as acceptEvaluationContext takes it (collections-memo.ts).
 *
 * @example
 *   acceptEvaluateBody({ cart: { currency: 'USD', lines: [] } }); // { cart: { currency: 'USD', lines: [] } }
 */
export function acceptEvaluateBody(body: unknown, known?: KnownCollections): EvaluationContext | undefined {
  const context = acceptEvaluationContext(body, known);
  return context !== undefined && context.cart.lines.length <= MAX_CART_LINES ? context : undefined;
}

/**
 * `?trace=false` leaves the traces out (an addition to CONTRACT, whose answer, with traces, stays
 * the default). Only the words `true` and `false`: a typo must not silently mean either.
 */
export const evaluateQuerySchema = z.object({
  trace: z
    .enum(['true', 'false'], { message: 'Expected true or false' })
    .default('true')
    .transform((value) => value === 'true')
    .meta({ description: '`false` answers without the `trace` of each result; default `true`' }),
});

/** A matched repeatable gift's count (the engine's GiftSets). */
const repeatSchema = z
  .object({
    sets: z.int().meta({ description: 'Gift sets given: min(max, floor(counted / every)); 0 gives nothing' }),
    of: z.enum(['items', 'subtotal']),
    every: z.int().meta({ description: 'The step that applied (a subtotal step resolved for the cart currency)' }),
    max: z.int(),
    counted: z.number().meta({ description: 'Non-gift items, or the non-gift subtotal in the cart currency\'s minor units' }),
    capped: z.boolean().meta({ description: 'Whether `max` cut the sets' }),
    reason: z.enum(['per_sets', 'per_sets_capped', 'per_below_every', 'foreign_currency_no_override']),
  })
  .meta({ description: 'Only on a matched rule whose giftConfig has `per`: how many gift sets it gives and why' });

/** A matched rule's per-customer limit (the engine's CustomerLimit). */
const limitSchema = z
  .object({
    maxPerCustomer: z.int().meta({ description: 'The rule\'s `options.maxPerCustomer`' }),
    used: z.int().nullable().meta({ description: 'The customer\'s redemptions of the rule (orders that carried its gift); null when the customer is unknown' }),
    reason: z.enum(['max_per_customer_below', 'max_per_customer_reached', 'max_per_customer_unknown_customer']),
  })
  .meta({
    description:
      'Only on a rule with `options.maxPerCustomer` whose conditions matched: the limit and what the customer has used. At the limit, or for an unknown (anonymous, not logged in) customer, the rule gives nothing: `matched` is false and `reasons` is `[reason]`',
  });

export const ruleResultSchema = z.object({
  ruleId: z.string(),
  campaignId: z.string(),
  matched: z.boolean(),
  reasons: z.array(z.string()).meta({ description: 'The leaf codes that decided, or why the rule was skipped' }),
  suppressedBy: z
    .string()
    .optional()
    .meta({
      description:
        'Stacking: the id of the rule that won over this one, whose conditions matched; `reasons` then says why (`suppressed_by_exclusive`, `suppressed_by_higher_tier`) and `matched` is false',
    }),
  repeat: repeatSchema.optional(),
  limit: limitSchema.optional(),
  trace: conditionTraceSchema
    .nullable()
    .optional()
    .meta({ description: 'The full trace of the condition tree; null when the rule was skipped (see `reasons`); absent with `?trace=false`' }),
});

const attributesSchema = z.record(z.string(), z.string()).meta({ description: 'Gift line attributes (SPEC table)' });

const setsSchema = z.int().optional().meta({ description: 'A repeatable gift only: the gift sets the quantity holds (quantity = gift quantity × sets)' });

export const cartOperationSchema = z.discriminatedUnion('type', [
  z
    .object({ type: z.literal('add'), variantId: z.string(), quantity: z.int(), attributes: attributesSchema, sets: setsSchema })
    .meta({ description: 'Add an auto-add gift that is not in the cart yet (or, for a repeatable gift, again with its new quantity)' }),
  z
    .object({ type: z.literal('remove'), lineId: z.string(), ruleId: z.string() })
    .meta({ description: 'Remove a gift line whose rule no longer matches, or a second gift line of one rule; `lineId` is the line `id` or `#<index>`' }),
  z
    .object({ type: z.literal('update'), lineId: z.string(), ruleId: z.string(), quantity: z.int() })
    .meta({ description: "Put a gift line of a rule that locks its quantity (`options.lockQuantity`) back to the gift's quantity" }),
  z
    .object({
      type: z.literal('choose'),
      ruleId: z.string(),
      campaignId: z.string(),
      options: z.array(z.object({ variantId: z.string(), quantity: z.int() })),
      attributes: attributesSchema,
      sets: setsSchema,
    })
    .meta({ description: 'Offer the gifts of a matched customer-choice rule; put `attributes` on the chosen line' }),
]);

export const evaluationResponseSchema = z.object({
  results: z.array(ruleResultSchema).meta({ description: 'One result per rule, in payload order' }),
  operations: z.array(cartOperationSchema).meta({ description: 'Removes, then updates, then adds, then chooses' }),
});

/**
 * CONTRACT "Admin API" simulate: `{ campaignId? or campaign?, context }`. Neither means every
 * campaign of the shop; both is a 400. `at` (an addition) is the instant to simulate at.
 */
export const simulateBodySchema = z
  .object({
    campaignId: textSchema.min(1).optional(),
    campaign: importCampaignSchema.optional(),
    context: boundedContextSchema,
    at: timestampInputSchema.optional(),
    redemptions: z
      .record(textSchema, z.int().min(0).max(MAX_PER_CUSTOMER))
      .optional()
      .meta({
        description:
          'What-if redemption counts of the context\'s customer by rule id, for per-customer limits (`options.maxPerCustomer`); absent rules count 0. Without it, the customer\'s stored counts apply. An anonymous context stays unknown either way',
      }),
  })
  .refine((body) => body.campaignId === undefined || body.campaign === undefined, {
    message: 'Send campaignId or campaign, not both',
    path: ['campaign'],
  });

export type SimulateBody = z.output<typeof simulateBodySchema>;
export type EvaluationResponse = z.output<typeof evaluationResponseSchema>;
