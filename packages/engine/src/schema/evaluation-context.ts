import * as z from 'zod';
import { textSchema } from './text.ts';
import { gidOrNumericIdSchema } from './gid.ts';
import { lineAttributesSchema } from './line-attributes.ts';

/** One cart line as the storefront sees it. Amounts are integers in minor units. */
export const cartLineSchema = z.object({
  id: textSchema.optional(),
  productId: gidOrNumericIdSchema('Product'),
  variantId: gidOrNumericIdSchema('ProductVariant'),
  quantity: z.int().nonnegative(),
  /** Unit price before discounts. */
  price: z.int().nonnegative(),
  /** Unit price after line discounts; used when shopSettings.engine.useDiscountedPrices. */
  discountedPrice: z.int().nonnegative().optional(),
  sellingPlanId: gidOrNumericIdSchema('SellingPlan').nullable().optional(),
  /**
   * Line properties; `_svc_campaign_id` marks a gift line. `{ key: value }` or the
   * platform's `[{ key, value }]`, parsed to the object form.
   */
  attributes: lineAttributesSchema.optional(),
});

/** What `cart.currency` must look like. */
export const CURRENCY_CODE_PATTERN = /^[A-Za-z]{3}$/;

/**
 * CONTRACT "Evaluation": what a condition tree is evaluated against, plus the optional
 * `visitorId` of `POST /api/v1/evaluate` (sticky A/B assignment).
 *
 * @example evaluationContextSchema.parse({ cart: { currency: 'USD', lines: [] } })
 */
export const evaluationContextSchema = z.object({
  cart: z.object({
    currency: z.string().regex(CURRENCY_CODE_PATTERN, { message: 'Expected an ISO 4217 currency code' }),
    lines: z.array(cartLineSchema),
    shipping: z.int().optional(),
    tax: z.int().optional(),
    discountCodes: z.array(textSchema).optional(),
  }),
  customer: z
    .object({
      id: textSchema.optional(),
      loggedIn: z.boolean(),
      tags: z.array(textSchema),
    })
    .nullable()
    .optional(),
  market: z.object({ handle: textSchema, country: textSchema }).nullable().optional(),
  /** Collection handle, numeric id or gid -> product gids or numeric ids. */
  collections: z.record(textSchema, z.array(gidOrNumericIdSchema('Product'))).optional(),
  visitorId: textSchema.optional(),
});

export type CartLine = z.output<typeof cartLineSchema>;
export type Cart = z.output<typeof evaluationContextSchema>['cart'];
export type EvaluationContext = z.output<typeof evaluationContextSchema>;
/** What {@link evaluationContextSchema} accepts (attributes in either form). */
export type EvaluationContextInput = z.input<typeof evaluationContextSchema>;
