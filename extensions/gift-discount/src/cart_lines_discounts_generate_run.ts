/**
 * The function's entry for `cart.lines.discounts.generate.run`: the platform hands it the
 * input query's result and takes back the Discount Function API result. All logic is the
 * engine's (`runGiftDiscount`), so the server's tests and this function cannot disagree.
 */
import { runGiftDiscount } from '@gcrs/engine/checkout';
import type { GiftFunctionInput, GiftFunctionResult } from '@gcrs/engine/checkout';

/**
 * @example cartLinesDiscountsGenerateRun(input) // { operations: [...] }
 */
export function cartLinesDiscountsGenerateRun(input: GiftFunctionInput): GiftFunctionResult {
  return runGiftDiscount(input);
}

/** The same entry under the name the build and the tests call. */
export const run = cartLinesDiscountsGenerateRun;
