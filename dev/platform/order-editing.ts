/**
 * The stand-in platform's order-editing family (docs/repairs.md): the four mutations a missing
 * gift is repaired with, under the platform's documented shapes (Admin API 2025-10).
 *
 * - `orderEditBegin(id)`: a calculated order (`gid://shopify/CalculatedOrder/n`) and its
 *   `orderEditSession` for an order the stand-in holds; `userErrors` for an unknown order or one
 *   that cannot be edited (cancelled, archived).
 * - `orderEditAddVariant(id, variantId, quantity, allowDuplicates)`: a `calculatedLineItem`
 *   (`gid://shopify/CalculatedLineItem/n`); `userErrors` for a quantity below 1, a variant
 *   already on the order without `allowDuplicates`, or a session already committed.
 * - `orderEditAddLineItemDiscount(id, lineItemId, discount)`: a percentage (0..100) or fixed
 *   discount on a line added in this session (the platform discounts only added lines).
 * - `orderEditCommit(id, notifyCustomer, staffNote)`: the staged lines join the order; a
 *   second commit of one session is a `userErrors` answer.
 *
 * `id` may name the calculated order or the session, as the platform accepts either.
 */
import { createFaults, withFaults } from './faults.ts';
import type { Faults } from './faults.ts';
import { answerRoot } from './selection.ts';
import type { Answer, Resolver } from './selection.ts';
import type { OperationFamily } from './standin.ts';

export type StandinLineItem = {
  id: number;
  variantId: string;
  quantity: number;
  discount?: { applicationId: number; percentValue?: number; fixedValue?: string; description?: string };
};

/**
 * How the stand-in reads `fixedValue` on a line of several units: the input does not say, so it
 * plays both readings (`per_unit`: the amount off each unit; `per_line`: off the whole line).
 */
export type FixedDiscountReading = 'per_unit' | 'per_line';
export type StandinOrder = {
  /** Digits: the platform's order ids pass 2^53. */
  id: string;
  lineItems: StandinLineItem[];
  /** False for an order the platform will not edit (cancelled, archived). */
  editable: boolean;
  /** Every committed edit: whether the customer was notified, the staff note, and when (epoch ms). */
  edits: Array<{ notifyCustomer: boolean; staffNote: string | null; committedAt: number }>;
};

type Session = { id: number; domain: string; orderId: string; staged: StandinLineItem[]; committed: boolean };

export type OrderEditingFamily = {
  family: OperationFamily;
  faults: Faults;
  /** The orders of a shop (by domain), by numeric order id. */
  ordersOf(domain: string): Map<string, StandinOrder>;
  /** How a fixed amount is applied to a line of several units (default `per_unit`). */
  fixedReading: FixedDiscountReading;
  /** Adds an order (as checkout made it) to a shop; returns it. */
  addOrder(domain: string, order: { id: number | string; lineItems?: Array<{ variantId: number | string; quantity: number }>; editable?: boolean }): StandinOrder;
};

type UserError = { field: string[] | null; message: string };

const gid = (type: string, id: number | string) => `gid://shopify/${type}/${id}`;
const digitsOf = (id: unknown): string => String(id).split('/').at(-1) ?? '';
const numericOf = (id: unknown): number => Number(digitsOf(id));

let nextId = 1;

/** @example const editing = createOrderEditingFamily(); editing.addOrder('a.myshopify.com', { id: 1001, lineItems: [{ variantId: 7, quantity: 1 }] }); */
export function createOrderEditingFamily(): OrderEditingFamily {
  const faults = createFaults();
  const orders = new Map<string, Map<string, StandinOrder>>();
  const sessions = new Map<number, Session>();
  const ordersOf = (domain: string) => {
    let own = orders.get(domain);
    if (!own) orders.set(domain, (own = new Map()));
    return own;
  };

  let fixedReading: FixedDiscountReading = 'per_unit';
  // A fixed discount's allocation under the reading; a percentage has no price to apply to here (0).
  const allocated = (line: StandinLineItem): string => {
    const fixed = Number(line.discount?.fixedValue ?? 0);
    return (fixedReading === 'per_unit' ? fixed * line.quantity : fixed).toFixed(2);
  };
  const lineAnswer = (line: StandinLineItem): Answer => ({
    id: gid('CalculatedLineItem', line.id),
    quantity: line.quantity,
    variant: { id: gid('ProductVariant', line.variantId) },
    hasStagedLineItemDiscount: line.discount !== undefined,
    calculatedDiscountAllocations:
      line.discount === undefined
        ? []
        : [
            {
              allocatedAmountSet: { presentmentMoney: { amount: allocated(line), currencyCode: 'USD' }, shopMoney: { amount: allocated(line), currencyCode: 'USD' } },
              discountApplication: { __typename: 'CalculatedManualDiscountApplication', id: gid('CalculatedManualDiscountApplication', line.discount.applicationId), description: line.discount.description ?? null },
            },
          ],
  });
  const calculatedOrder = (session: Session): Answer => ({
    id: gid('CalculatedOrder', session.id),
    addedLineItems: { nodes: session.staged.map(lineAnswer) },
  });
  const payload = (userErrors: UserError[], fields: Record<string, Answer>): Answer => ({ ...fields, userErrors });

  function answerFor(domain: string): Record<string, Resolver> {
    const sessionOf = (id: unknown): Session | undefined => {
      const session = sessions.get(numericOf(id));
      return session?.domain === domain ? session : undefined;
    };
    const noSession = (fields: Record<string, Answer>) => payload([{ field: ['id'], message: 'The calculated order does not exist.' }], fields);
    return {
      orderEditBegin: (args) => {
        const order = ordersOf(domain).get(digitsOf(args.id));
        if (order === undefined) return payload([{ field: ['id'], message: 'The order does not exist.' }], { calculatedOrder: null, orderEditSession: null });
        if (!order.editable) return payload([{ field: ['id'], message: 'The order cannot be edited.' }], { calculatedOrder: null, orderEditSession: null });
        const session: Session = { id: nextId++, domain, orderId: order.id, staged: [], committed: false };
        sessions.set(session.id, session);
        return payload([], { calculatedOrder: calculatedOrder(session), orderEditSession: { id: gid('OrderEditSession', session.id) } });
      },
      orderEditAddVariant: (args) => {
        const session = sessionOf(args.id);
        const none = { calculatedLineItem: null, calculatedOrder: null, orderEditSession: null };
        if (session === undefined || session.committed) return noSession(none);
        const quantity = Number(args.quantity);
        if (!Number.isInteger(quantity) || quantity < 1) return payload([{ field: ['quantity'], message: 'Quantity must be greater than 0.' }], none);
        const variantId = digitsOf(args.variantId);
        const order = ordersOf(domain).get(session.orderId);
        const present = [...(order?.lineItems ?? []), ...session.staged].some((line) => line.variantId === variantId);
        if (present && args.allowDuplicates !== true) return payload([{ field: ['variantId'], message: 'The variant is already on the order.' }], none);
        const line: StandinLineItem = { id: nextId++, variantId, quantity };
        session.staged.push(line);
        return payload([], { calculatedLineItem: lineAnswer(line), calculatedOrder: calculatedOrder(session), orderEditSession: { id: gid('OrderEditSession', session.id) } });
      },
      orderEditAddLineItemDiscount: (args) => {
        const session = sessionOf(args.id);
        const none = { addedDiscountStagedChange: null, calculatedLineItem: null, calculatedOrder: null, orderEditSession: null };
        if (session === undefined || session.committed) return noSession(none);
        const line = session.staged.find((candidate) => candidate.id === numericOf(args.lineItemId));
        if (line === undefined) return payload([{ field: ['lineItemId'], message: 'Only a line item added in this edit can be discounted.' }], none);
        const discount = (args.discount ?? {}) as { percentValue?: number | null; fixedValue?: { amount?: string } | null; description?: string | null };
        const percent = discount.percentValue ?? undefined;
        const fixed = discount.fixedValue?.amount;
        if ((percent === undefined) === (fixed === undefined) || (percent !== undefined && (percent <= 0 || percent > 100))) {
          return payload([{ field: ['discount'], message: 'Give either a percentage between 0 and 100 or a fixed amount.' }], none);
        }
        line.discount = {
          applicationId: nextId++,
          ...(percent === undefined ? {} : { percentValue: percent }),
          ...(fixed === undefined ? {} : { fixedValue: fixed }),
          ...(discount.description ? { description: discount.description } : {}),
        };
        const change = { id: gid('OrderStagedChangeAddLineItemDiscount', nextId++), description: discount.description ?? '' };
        return payload([], { addedDiscountStagedChange: change, calculatedLineItem: lineAnswer(line), calculatedOrder: calculatedOrder(session), orderEditSession: { id: gid('OrderEditSession', session.id) } });
      },
      orderEditUpdateDiscount: (args) => {
        const session = sessionOf(args.id);
        const none = { calculatedOrder: null, orderEditSession: null };
        if (session === undefined || session.committed) return noSession(none);
        const line = session.staged.find((candidate) => candidate.discount?.applicationId === numericOf(args.discountApplicationId));
        if (line?.discount === undefined) return payload([{ field: ['discountApplicationId'], message: 'The discount does not exist.' }], none);
        const discount = (args.discount ?? {}) as { percentValue?: number | null; fixedValue?: { amount?: string } | null; description?: string | null };
        const percent = discount.percentValue ?? undefined;
        const fixed = discount.fixedValue?.amount;
        if ((percent === undefined) === (fixed === undefined)) return payload([{ field: ['discount'], message: 'Give either a percentage or a fixed amount.' }], none);
        line.discount = { applicationId: line.discount.applicationId, ...(percent === undefined ? {} : { percentValue: percent }), ...(fixed === undefined ? {} : { fixedValue: fixed }), ...(line.discount.description ? { description: line.discount.description } : {}) };
        return payload([], { calculatedOrder: calculatedOrder(session), orderEditSession: { id: gid('OrderEditSession', session.id) } });
      },
      orderEditCommit: (args) => {
        const session = sessionOf(args.id);
        if (session === undefined || session.committed) return noSession({ order: null, successMessages: null });
        const order = ordersOf(domain).get(session.orderId);
        if (order === undefined) return noSession({ order: null, successMessages: null });
        session.committed = true;
        order.lineItems.push(...session.staged);
        order.edits.push({ notifyCustomer: args.notifyCustomer === true, staffNote: typeof args.staffNote === 'string' ? args.staffNote : null, committedAt: Date.now() });
        const lineItems = { nodes: order.lineItems.map((line) => ({ id: gid('LineItem', line.id), quantity: line.quantity, variant: { id: gid('ProductVariant', line.variantId) } })) };
        return payload([], { order: { id: gid('Order', order.id), lineItems }, successMessages: ['Order updated'] });
      },
    };
  }

  const family: OperationFamily = {
    rootFields: ['orderEditBegin', 'orderEditAddVariant', 'orderEditAddLineItemDiscount', 'orderEditUpdateDiscount', 'orderEditCommit'],
    answer: (call) =>
      withFaults(faults, () => {
        const root = answerFor(call.shop.domain);
        return answerRoot(call.operation, root, call.variables);
      }),
  };

  return {
    family,
    faults,
    ordersOf,
    get fixedReading() {
      return fixedReading;
    },
    set fixedReading(reading: FixedDiscountReading) {
      fixedReading = reading;
    },
    addOrder(domain, input) {
      const order: StandinOrder = {
        id: String(input.id),
        lineItems: (input.lineItems ?? []).map((line) => ({ id: nextId++, variantId: String(line.variantId), quantity: line.quantity })),
        editable: input.editable ?? true,
        edits: [],
      };
      ordersOf(domain).set(order.id, order);
      return order;
    },
  };
}
