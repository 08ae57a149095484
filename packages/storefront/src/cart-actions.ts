/**
 * From the planner's operations to the platform's AJAX Cart API calls (CONTRACT
 * "Storefront"): `POST /cart/add.js` `{ items: [{ id, quantity, properties }] }` for an add,
 * `POST /cart/change.js` `{ id: <line key>, quantity: 0 }` for a remove, and
 * `{ id: <line key>, quantity }` for an update (a gift line of a rule that locks its quantity,
 * put back to the gift's quantity). Chooses are not cart calls: they open the gift choice.
 */
import type { CartOperation } from '@gcrs/engine/planner';
import type { AjaxCart } from './ajax-cart.ts';
import { lineAttributes, toNumericId } from './ajax-cart.ts';

export type AddRequest = {
  kind: 'add';
  path: '/cart/add.js';
  body: { items: Array<{ id: number; quantity: number; properties: Record<string, string> }> };
  /** For events and the refusal memory. */
  gift: { ruleId: string; campaignId: string; variantId: string };
};
export type ChangeRequest = {
  kind: 'remove' | 'update';
  path: '/cart/change.js';
  body: { id: string; quantity: number };
  gift: { ruleId: string; campaignId: string; variantId: string };
};
export type CartRequest = AddRequest | ChangeRequest;

const CAMPAIGN = '_svc_campaign_id';
const RULE = '_svc_rule_id';

/**
 * The add request for one gift line: a numeric variant id and the gift attributes as
 * properties.
 *
 * @example addRequest('gid://shopify/ProductVariant/7', 1, { _svc_campaign_id: 'cmp_1', _svc_rule_id: 'rul_1' })
 */
export function addRequest(variantId: string, quantity: number, attributes: Record<string, string>): AddRequest {
  return {
    kind: 'add',
    path: '/cart/add.js',
    body: { items: [{ id: toNumericId(variantId), quantity, properties: { ...attributes } }] },
    gift: { ruleId: attributes[RULE] ?? '', campaignId: attributes[CAMPAIGN] ?? '', variantId },
  };
}

/**
 * The cart calls for a plan, in its order (removes, updates, adds): a remove or an update by
 * line key (one naming a line no longer in the cart is skipped), an add by variant. `chooses`
 * are left to the gift choice.
 *
 * @example cartRequests(plan.operations, cart)
 */
export function cartRequests(operations: readonly CartOperation[], cart: AjaxCart): CartRequest[] {
  const requests: CartRequest[] = [];
  for (const operation of operations) {
    if (operation.type === 'add') requests.push(addRequest(operation.variantId, operation.quantity, operation.attributes));
    if (operation.type !== 'remove' && operation.type !== 'update') continue;
    const item = cart.items.find((candidate) => candidate.key === operation.lineId);
    if (item === undefined) continue;
    requests.push({
      kind: operation.type,
      path: '/cart/change.js',
      body: { id: item.key, quantity: operation.type === 'update' ? operation.quantity : 0 },
      gift: { ruleId: operation.ruleId, campaignId: lineAttributes(item.properties)[CAMPAIGN] ?? '', variantId: String(item.id) },
    });
  }
  return requests;
}
