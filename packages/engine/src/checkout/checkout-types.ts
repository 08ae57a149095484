/** Money as the platform's function input carries it: a decimal string in major units. */
export type CheckoutMoney = { amount: string | number; currencyCode: string };

/** A line attribute as the input query returns it. */
export type CheckoutAttribute = { key: string; value: string | null };

/**
 * One cart line of the discount function input (modelled on Shopify's
 * `cart.lines` of a Discount Function). The gift attributes may come in as aliased
 * `attribute(key: ...)` fields (`campaignId`, `ruleId`), as one unaliased `attribute`,
 * or as an `attributes` list.
 */
export type CheckoutCartLine = {
  id: string;
  quantity: number;
  cost: { amountPerQuantity: CheckoutMoney; subtotalAmount?: CheckoutMoney };
  merchandise: { __typename?: string; id?: string; product?: { id: string } };
  campaignId?: { value: string | null } | null;
  ruleId?: { value: string | null } | null;
  attribute?: CheckoutAttribute | null;
  attributes?: CheckoutAttribute[] | null;
};

export type CheckoutInput = { cart: { lines: CheckoutCartLine[] } };

export type CheckoutDiscountValue =
  | { percentage: { value: string } }
  | { fixedAmount: { amount: string; appliesToEachItem: true } };

/** One discount of the output: the lines it targets, its value and its message. */
export type CheckoutDiscount = {
  targets: Array<{ cartLine: { id: string } }>;
  value: CheckoutDiscountValue;
  message: string;
};

export type CheckoutErrorCode = 'zero_value_cart' | 'gift_only_cart' | 'min_order_total';

/** A blocking checkout validation error (shaped like a cart validation function's). */
export type CheckoutError = { code: CheckoutErrorCode; localizedMessage: string; target: '$.cart' };

export type CheckoutResult = {
  discounts: CheckoutDiscount[];
  discountApplicationStrategy: 'ALL';
  /** Validation errors; non-empty means checkout must be blocked. */
  errors: CheckoutError[];
  blocked: boolean;
};
