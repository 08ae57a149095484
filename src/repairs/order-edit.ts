/**
 * Adding a missing gift to a paid order with the platform's order editing (CONTRACT part three
 * "Refunds and repairs"): `orderEditBegin`, `orderEditAddVariant`, `orderEditAddLineItemDiscount`
 * on the added line (and `orderEditUpdateDiscount` when a fixed amount landed on the whole line
 * instead of each unit), `orderEditCommit` with `notifyCustomer: false`. A `userErrors` answer is an
 * expected outcome (the order cannot take the edit: retrying will not help) and comes back as a
 * value; throttling, outages and a refused token throw (admin-client.ts), to be retried.
 */
import { toDecimalString, toMinorUnits } from '@gcrs/engine';
import { z } from 'zod';
import type { AdminClient } from '../platform/admin-client.ts';
import { adminRequest } from '../platform/admin-client.ts';
import { ORDER_EDIT_ADD_DISCOUNT, ORDER_EDIT_ADD_VARIANT, ORDER_EDIT_BEGIN, ORDER_EDIT_COMMIT, ORDER_EDIT_UPDATE_DISCOUNT } from '../platform/admin-documents.ts';

/** The gift line to add and its discount (the rule's `options`). */
export type GiftEdit = {
  orderId: string;
  variantId: string;
  quantity: number;
  currency: string;
  discount: { type: 'percentage' | 'fixed_amount'; value: number; title: string };
  staffNote: string;
};

/** `lineItemId`: the order line the edit added (numeric, as refunds name it); null when the answer did not show it. */
export type EditOutcome = { ok: true; orderGid: string; lineItemId: string | null } | { ok: false; step: string; message: string };

const userErrorsSchema = z.array(z.object({ field: z.array(z.string()).nullable().optional(), message: z.string() }));
const beginAnswer = z.object({ orderEditBegin: z.object({ calculatedOrder: z.object({ id: z.string() }).nullable(), userErrors: userErrorsSchema }) });
const addAnswer = z.object({ orderEditAddVariant: z.object({ calculatedLineItem: z.object({ id: z.string() }).nullable(), userErrors: userErrorsSchema }) });
const allocationSchema = z.object({ allocatedAmountSet: z.object({ presentmentMoney: z.object({ amount: z.string() }) }), discountApplication: z.object({ id: z.string() }) });
const discountAnswer = z.object({
  orderEditAddLineItemDiscount: z.object({ calculatedLineItem: z.object({ calculatedDiscountAllocations: z.array(allocationSchema) }).nullish(), userErrors: userErrorsSchema }),
});
const updateAnswer = z.object({ orderEditUpdateDiscount: z.object({ userErrors: userErrorsSchema }) });
const commitAnswer = z.object({
  orderEditCommit: z.object({
    order: z.object({ id: z.string(), lineItems: z.object({ nodes: z.array(z.object({ id: z.string(), variant: z.object({ id: z.string() }).nullable() })) }).nullish() }).nullable(),
    userErrors: userErrorsSchema,
  }),
});

const gid = (type: string, id: string) => (id.startsWith('gid://') ? id : `gid://shopify/${type}/${id}`);
const digitsOf = (id: string) => id.split('/').at(-1) ?? id;
const refused = (step: string, errors: z.infer<typeof userErrorsSchema>): EditOutcome => ({ ok: false, step, message: errors.map((e) => e.message).join('; ') || 'refused without a reason' });

/**
 * The discount input of the added line: the rule's percentage (100 = free), or its fixed amount
 * per unit in the order's currency, as the checkout function gives it (`appliesToEachItem`).
 *
 * @example discountInput({ type: 'percentage', value: 100, title: 'Free gift' }, 'USD'); // { percentValue: 100, description: 'Free gift' }
 */
export function discountInput(discount: GiftEdit['discount'], currency: string): Record<string, unknown> {
  if (discount.type === 'percentage') return { percentValue: discount.value, description: discount.title };
  return { fixedValue: { amount: toDecimalString(discount.value, currency), currencyCode: currency }, description: discount.title };
}

/**
 * Runs the four mutations; stops at the first `userErrors` (nothing is committed then: an edit
 * that is begun and not committed changes nothing on the platform).
 *
 * @example
 *   const outcome = await addGiftToOrder(client, { orderId: '820982911946154508', variantId: '7', quantity: 1, currency: 'USD', discount, staffNote });
 */
export async function addGiftToOrder(client: AdminClient, edit: GiftEdit): Promise<EditOutcome> {
  const begin = await adminRequest(client, 'Beginning the order edit', ORDER_EDIT_BEGIN, { id: gid('Order', edit.orderId) }, (d) => beginAnswer.parse(d));
  const calculated = begin.orderEditBegin.calculatedOrder;
  if (calculated === null || begin.orderEditBegin.userErrors.length > 0) return refused('orderEditBegin', begin.orderEditBegin.userErrors);

  const add = await adminRequest(
    client,
    'Adding the gift to the order',
    ORDER_EDIT_ADD_VARIANT,
    { id: calculated.id, variantId: gid('ProductVariant', edit.variantId), quantity: edit.quantity },
    (d) => addAnswer.parse(d),
  );
  const line = add.orderEditAddVariant.calculatedLineItem;
  if (line === null || add.orderEditAddVariant.userErrors.length > 0) return refused('orderEditAddVariant', add.orderEditAddVariant.userErrors);

  if (edit.discount.value > 0) {
    const discounted = await discountLine(client, calculated.id, line.id, edit);
    if (discounted !== undefined) return discounted;
  }

  const commit = await adminRequest(client, 'Committing the order edit', ORDER_EDIT_COMMIT, { id: calculated.id, staffNote: edit.staffNote }, (d) => commitAnswer.parse(d));
  const order = commit.orderEditCommit.order;
  if (order === null || commit.orderEditCommit.userErrors.length > 0) return refused('orderEditCommit', commit.orderEditCommit.userErrors);
  // The added line: the platform appends it, so the last line of the gift's variant.
  const variant = gid('ProductVariant', edit.variantId);
  const added = (order.lineItems?.nodes ?? []).filter((node) => node.variant?.id === variant).at(-1);
  return { ok: true, orderGid: order.id, lineItemId: added === undefined ? null : digitsOf(added.id) };
}

/**
 * Discounts the added line by the rule's discount. A fixed amount is the rule's amount per unit
 * (as the checkout function gives it); the platform's input does not say whether `fixedValue` is
 * per unit or for the whole line, so the allocation is read back, and a line of several units
 * that got less than amount × quantity has its discount set to the whole line's total with
 * `orderEditUpdateDiscount` (the platform caps a discount at the line's price either way).
 * Returns the refusal, or undefined when the line is discounted.
 */
async function discountLine(client: AdminClient, calculatedId: string, lineId: string, edit: GiftEdit): Promise<EditOutcome | undefined> {
  const answer = await adminRequest(
    client,
    'Discounting the gift line',
    ORDER_EDIT_ADD_DISCOUNT,
    { id: calculatedId, lineItemId: lineId, discount: discountInput(edit.discount, edit.currency) },
    (d) => discountAnswer.parse(d),
  );
  const added = answer.orderEditAddLineItemDiscount;
  if (added.userErrors.length > 0) return refused('orderEditAddLineItemDiscount', added.userErrors);
  if (edit.discount.type !== 'fixed_amount' || edit.quantity <= 1) return undefined;
  const allocations = added.calculatedLineItem?.calculatedDiscountAllocations ?? [];
  const allocated = allocations.reduce((sum, allocation) => sum + toMinorUnits(allocation.allocatedAmountSet.presentmentMoney.amount, edit.currency), 0);
  const whole = edit.discount.value * edit.quantity;
  const application = allocations.at(-1)?.discountApplication.id;
  if (allocated >= whole || application === undefined) return undefined;
  const update = await adminRequest(
    client,
    'Discounting the whole gift line',
    ORDER_EDIT_UPDATE_DISCOUNT,
    { id: calculatedId, discountApplicationId: application, discount: discountInput({ ...edit.discount, value: whole }, edit.currency) },
    (d) => updateAnswer.parse(d),
  );
  if (update.orderEditUpdateDiscount.userErrors.length > 0) return refused('orderEditUpdateDiscount', update.orderEditUpdateDiscount.userErrors);
  return undefined;
}
