/**
 * A shop's settings as its admin sets them (PATCH /shops/:shopId `settings`) and the shops
 * table stores them: the partial `shopSettings` of the rules payload (SPEC "Rules payload") plus
 * the server's own (`lowStockThreshold`, `checkout.repairMissingGifts`, `storefront.debug`).
 * Here, not in the server's shops feature, because the database schema types its column with it.
 */
import * as z from 'zod';
import { stackingSchema } from './rules-payload.ts';
import { textSchema } from './text.ts';

/** PATCH /shops/:shopId `settings`: every field optional; `null` turns the minimum-total guard off. */
export const shopSettingsPatchSchema = z
  .object({
    engine: z
      .object({
        runOnExpressCheckout: z.boolean(),
        runOnCartSubmission: z.boolean(),
        useDiscountedPrices: z.boolean(),
        evaluationDelay: z.int().min(0).max(60_000),
        stacking: stackingSchema.meta({ description: '`all`: every matching rule gives; `highest_tier`: per campaign only its highest (docs/promotions.md)' }),
      })
      .partial()
      .strict(),
    checkout: z
      .object({
        blockZeroValueCart: z.boolean(),
        blockGiftOnlyCarts: z.boolean(),
        stripZeroPriceItems: z.boolean(),
        minOrderTotalCents: z.int().min(0).nullable(),
        minOrderTotalMessage: textSchema.max(500).nullable(),
        /** CONTRACT part three "Refunds and repairs": add a live auto_add rule's missing gift to a paid order (docs/repairs.md). */
        repairMissingGifts: z.boolean(),
      })
      .partial()
      .strict(),
    data: z.object({ collectCartTokens: z.boolean() }).partial().strict(),
    /** CONTRACT "Storefront": `debugAllowed` of the storefront's rules payload (`?svc_debug=1` traces). */
    storefront: z.object({ debug: z.boolean() }).partial().strict(),
    lowStockThreshold: z.int().min(0),
  })
  .partial()
  .strict();

export type ShopSettingsPatch = z.infer<typeof shopSettingsPatchSchema>;
export type StoredShopSettings = ShopSettingsPatch;

