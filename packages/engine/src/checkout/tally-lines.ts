/**
 * The checkout function's pass over the cart's non-gift lines (issue 22, instructions): each
 * line of the platform's input is read once and added to the prepared context with
 * `tallyLine`, its gids keyed only when a claimed tree compares them (tree-needs.ts). No
 * line becomes an engine `CartLine` unless a tree walks lines one by one (`needs.lines`): in
 * QuickJS an object per line and the engine's second pass over it cost ~30K instructions a
 * line (docs/checkout-function.md "Instructions").
 */
import type { PreparedContext } from '../evaluate/prepare-context.ts';
import { tallyLine } from '../evaluate/prepare-context.ts';
import type { IdKey } from '../ids.ts';
import { gidKeyOf } from '../ids.ts';
import type { CartLine } from '../schema/evaluation-context.ts';
import type { GiftFunctionLine } from './function-input.ts';
import { toMinorUnitsAt } from './money.ts';
import type { TreeNeeds } from './tree-needs.ts';

/** A gid's id key (what the engine compares): undefined when unreadable, 0 when absent. */
const keyOfGid = (id: string | undefined): IdKey | undefined => (typeof id === 'string' ? gidKeyOf(id) : 0);

/** The id of a line fact no evaluated tree compares (tree-needs.ts): never keyed, never read. */
const UNCOMPARED: IdKey = '0';

/** A non-gift line as the engine's CartLine, its ids as keyed (an unreadable gid as given: no key either way). */
function cartLineOf(line: GiftFunctionLine, needs: TreeNeeds, productId: IdKey | undefined, variantId: IdKey | undefined, quantity: number, price: number, sellingPlanId: string | null): CartLine {
  const merchandise = line.merchandise;
  return {
    id: line.id,
    productId: needs.products ? (productId ?? merchandise.product?.id ?? UNCOMPARED) : UNCOMPARED,
    variantId: needs.variants ? (variantId ?? merchandise.id ?? UNCOMPARED) : UNCOMPARED,
    quantity,
    price,
    sellingPlanId,
  };
}

/**
 * Tallies the lines that claim no verified gift (`claims[index]` undefined) into `prepared`
 * (opened without lines); `scale` is the cart currency's `10 ** exponent`. Returns the
 * collections' member products (for `prepared.collections`, when `needs.collections`) and the
 * non-gift subtotal the minimum order total is checked against.
 *
 * @example tallyInputLines(input.cart.lines, claims, treeNeeds(trees), prepared, 100) // { collections: {}, nonGiftSubtotal: 4200 }
 */
export function tallyInputLines(
  lines: readonly GiftFunctionLine[],
  claims: ReadonlyArray<unknown>,
  needs: TreeNeeds,
  prepared: PreparedContext,
  scale: number,
): { collections: Record<string, IdKey[]>; nonGiftSubtotal: number } {
  const collections: Record<string, IdKey[]> = {};
  let nonGiftSubtotal = 0;
  // A line is a gift line only when its claim holds (rule, campaign, variant): a forged
  // attribute on any other line leaves it in the cart the conditions see.
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    if (line === undefined || claims[index] !== undefined) continue;
    const merchandise = line.merchandise;
    const product = merchandise.product;
    const productId = needs.products ? keyOfGid(product?.id) : undefined;
    const variantId = needs.variants ? keyOfGid(merchandise.id) : undefined;
    const price = toMinorUnitsAt(line.cost.amountPerQuantity.amount, scale);
    const units = line.quantity;
    const quantity = Number.isSafeInteger(units) && units > 0 ? units : 0;
    // Comparisons rather than Number.isFinite (a runtime call): NaN compares false, and
    // Infinity − Infinity is NaN.
    const unitPrice = price > 0 && price !== Infinity ? price : 0;
    const plan = line.sellingPlanAllocation?.sellingPlan.id ?? null;
    const cartLine = needs.lines ? cartLineOf(line, needs, productId, variantId, quantity, unitPrice, plan) : undefined;
    tallyLine(prepared, productId, variantId, quantity, unitPrice, plan !== null && plan !== '', cartLine);
    nonGiftSubtotal += (price - price === 0 ? price : 0) * quantity;
    const memberships = needs.collections ? product?.inCollections : undefined;
    if (memberships == null || memberships.length === 0) continue;
    for (const membership of memberships) {
      if (!membership.isMember) continue;
      (collections[membership.collectionId] ??= []).push(productId ?? product?.id ?? UNCOMPARED);
    }
  }
  return { collections, nonGiftSubtotal };
}
