import type { Cart, CartLine } from '../schema/evaluation-context.ts';
import type { CartOperation, ChooseOperation } from './operations.ts';
import { GIFT_ATTRIBUTE, lineIdOf } from './operations.ts';

/** The variant the customer picked per choose operation: by rule id, or a function. */
export type GiftChoices =
  | Readonly<Record<string, string>>
  | ((operation: ChooseOperation) => string | undefined);

/**
 * Applies planned operations to a cart, returning a new cart (the input is untouched):
 * removes by line id, sets updated lines' quantities, appends added gifts, and for each `choose` the option named in
 * `choices` (unknown or missing choices add nothing). Added lines get price 0 and
 * productId '0': the planner does not know them, and gift lines are never evaluated.
 * Meant for tests, simulators and storefronts that keep a local cart model.
 *
 * @example applyOperations(ctx.cart, planCart(compiled, ctx).operations, { rul_2: variantGid })
 */
export function applyOperations(cart: Cart, operations: readonly CartOperation[], choices: GiftChoices = {}): Cart {
  const removed = new Set<string>();
  const updated = new Map<string, number>();
  for (const operation of operations) {
    if (operation.type === 'remove') removed.add(operation.lineId);
    else if (operation.type === 'update') updated.set(operation.lineId, operation.quantity);
  }
  const lines: CartLine[] = [];
  cart.lines.forEach((line, index) => {
    const id = lineIdOf(line, index);
    if (removed.has(id)) return;
    const quantity = updated.get(id);
    lines.push(quantity === undefined ? line : { ...line, quantity });
  });
  let added = 0;
  const addLine = (variantId: string, quantity: number, attributes: Record<string, string>) => {
    added++;
    lines.push({ id: `svc-gift-${added}-${variantId}`, productId: '0', variantId, quantity, price: 0, attributes });
  };
  for (const operation of operations) {
    if (operation.type === 'add') {
      addLine(operation.variantId, operation.quantity, { ...operation.attributes });
    } else if (operation.type === 'choose') {
      const picked = typeof choices === 'function' ? choices(operation) : choices[operation.ruleId];
      const option = operation.options.find((candidate) => candidate.variantId === picked);
      if (option !== undefined) {
        addLine(option.variantId, option.quantity, {
          ...operation.attributes,
          [GIFT_ATTRIBUTE.campaignId]: operation.campaignId,
          [GIFT_ATTRIBUTE.ruleId]: operation.ruleId,
        });
      }
    }
  }
  return { ...cart, lines };
}
