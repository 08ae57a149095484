/**
 * The discount function's input as `extensions/gift-discount`'s input query asks for it
 * (Discount Function API, target `cart.lines.discounts.generate.run`), and its result.
 * Written by hand, so the engine stays free of the extension's generated code; the types the
 * platform's CLI generates from the input query must be assignable to it
 * (test/unit/function-input-types.test.ts).
 */

type Money = { amount: string | number; currencyCode: string };

export type GiftFunctionLine = {
  id: string;
  quantity: number;
  cost: { amountPerQuantity: Money };
  merchandise: {
    __typename?: string;
    id?: string;
    product?: { id: string; inCollections?: Array<{ collectionId: string; isMember: boolean }> };
  };
  sellingPlanAllocation?: { sellingPlan: { id: string } } | null;
  campaignId?: { value?: string | null } | null;
  ruleId?: { value?: string | null } | null;
};

export type GiftFunctionInput = {
  cart: {
    lines: GiftFunctionLine[];
    buyerIdentity?: {
      isAuthenticated?: boolean;
      customer?: {
        id?: string;
        hasTags?: Array<{ tag: string; hasTag: boolean }>;
        /** `$app:gifts` / `redemptions`: the customer's counts `{ "<ruleId>": count }` (per-customer limits). */
        metafield?: { value?: string | null; jsonValue?: unknown } | null;
      } | null;
    } | null;
  };
  /**
   * The country, and the buyer's language (`FR`, `PT_BR`: the discount's title in it);
   * `localization.market` is deprecated (compact-config.ts `needsMarket`).
   */
  localization?: { country?: { isoCode: string } | null; language?: { isoCode: string } | null } | null;
  /** Shop currency → presentment currency. */
  presentmentCurrencyRate?: string | number | null;
  discount?: {
    discountClasses?: string[];
    /** `$app:gifts` / `config`: the compact configuration (compact-config.ts). */
    metafield?: { jsonValue?: unknown; value?: string } | null;
    /** `$app:gifts` / `config2`: the rules that did not fit in `config` (config-metafields.ts). */
    config2?: { jsonValue?: unknown; value?: string } | null;
  } | null;
};

export type GiftDiscountValue =
  | { percentage: { value: string } }
  | { fixedAmount: { amount: string; appliesToEachItem: true } };

export type GiftDiscountCandidate = {
  targets: Array<{ cartLine: { id: string; quantity: number } }>;
  value: GiftDiscountValue;
  message: string;
};

/** `CartLinesDiscountsGenerateRunResult`. */
export type GiftFunctionResult = {
  operations: Array<{ productDiscountsAdd: { candidates: GiftDiscountCandidate[]; selectionStrategy: 'ALL' } }>;
};
