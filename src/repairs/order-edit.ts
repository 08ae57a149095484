/**
 * Adding a missing gift to a paid order with the platform's order editing (CONTRACT part three
 * "Refunds and repairs"): `orderEditBegin`, `orderEditAddVariant`, `orderEditAddLineItemDiscount`
 * on the added line, `orderEditCommit` with `notifyCustomer: false`. A `userErrors` answer is an
 * expected outcome (the order cannot take the edit: retrying will not help) and comes back as a
 * value; throttling, outages and a refused token throw (admin-client.ts), to be retried.
 */
import { toDecimalString } from '@gcrs/engine';
import { z } from 'zod';
import type { AdminClient } from '../platform/admin-client.ts';
import { adminRequest } from '../platform/admin-client.ts';
import { ORDER_EDIT_ADD_DISCOUNT, ORDER_EDIT_ADD_VARIANT, ORDER_EDIT_BEGIN, ORDER_EDIT_COMMIT } from '../platform/admin-documents.ts';

/** The gift line to add and its discount (the rule's `options`). */
export type GiftEdit = {
  orderId: string;
  variantId: string;
  quantity: number;
  currency: string;
  discount: { type: 'percentage' | 'fixed_amount'; value: number; title: string };
  staffNote: string;
};

export type EditOutcome = { ok: true; orderGid: string } | { ok: false; step: string; message: string };

const userErrorsSchema = z.array(z.object({ field: z.array(z.string()).nullable().optional(), message: z.string() }));
const beginAnswer = z.object({ orderEditBegin: z.object({ calculatedOrder: z.object({ id: z.string() }).nullable(), userErrors: userErrorsSchema }) });
const addAnswer = z.object({ orderEditAddVariant: z.object({ calculatedLineItem: z.object({ id: z.string() }).nullable(), userErrors: userErrorsSchema }) });
const discountAnswer = z.object({ orderEditAddLineItemDiscount: z.object({ userErrors: userErrorsSchema }) });
const commitAnswer = z.object({ orderEditCommit: z.object({ order: z.object({ id: z.string() }).nullable(), userErrors: userErrorsSchema }) });

const gid = (type: string, id: string) => (id.startsWith('gid://') ? id : `gid://shopify/${type}/${id}`);
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
    const discount = await adminRequest(
      client,
      'Discounting the gift line',
      ORDER_EDIT_ADD_DISCOUNT,
      { id: calculated.id, lineItemId: line.id, discount: discountInput(edit.discount, edit.currency) },
      (d) => discountAnswer.parse(d),
    );
    if (discount.orderEditAddLineItemDiscount.userErrors.length > 0) return refused('orderEditAddLineItemDiscount', discount.orderEditAddLineItemDiscount.userErrors);
  }

  const commit = await adminRequest(client, 'Committing the order edit', ORDER_EDIT_COMMIT, { id: calculated.id, staffNote: edit.staffNote }, (d) => commitAnswer.parse(d));
  const order = commit.orderEditCommit.order;
  if (order === null || commit.orderEditCommit.userErrors.length > 0) return refused('orderEditCommit', commit.orderEditCommit.userErrors);
  return { ok: true, orderGid: order.id };
}
