/**
 * From the planner's operations to the platform's AJAX Cart API calls (CONTRACT
 * "Storefront"): `POST /cart/add.js` `{ items: [{ id, quantity, properties }] }` for an add,
 * `POST /cart/change.js` `{ id: <line key>, quantity: 0 }` for a remove, and
 * `{ id: <line key>, quantity: 1 }` for a gift line with `_svc_lock_quantity` whose
 * quantity was changed. Chooses are not cart calls: they open the gift choice.
 */
import type { CartOperation } from '@gcrs/engine/planner';
import type { AjaxCart } from './ajax-cart.ts';
import { isGiftItem, lineAttributes, toNumericId } from './ajax-cart.ts';

export type AddRequest = {
  kind: 'add';
  path: '/cart/add.js';
  body: { items: Array<{ id: number; quantity: number; properties: Record<string, string> }> };
  /** For events and the refusal memory. */
  gift: { ruleId: string; campaignId: string; variantId: string };
};
export type ChangeRequest = {
  kind: 'remove' | 'lock';
  path: '/cart/change.js';
  body: { id: string; quantity: number };
  gift: { ruleId: string; campaignId: string; variantId: string };
};
export type CartRequest = AddRequest | ChangeRequest;

const CAMPAIGN = '_svc_campaign_id';
const RULE = '_svc_rule_id';
const LOCK = '_svc_lock_quantity';

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
 * The cart calls for a plan: removes first (by line key), then adds, then quantity locks.
 * `chooses` are left to the gift choice.
 *
 * @example cartRequests(plan.operations, cart)
 */
export function cartRequests(operations: readonly CartOperation[], cart: AjaxCart): CartRequest[] {
  const requests: CartRequest[] = [];
  const removed = new Set<string>();
  for (const operation of operations) {
    if (operation.type !== 'remove') continue;
    const item = cart.items.find((candidate) => candidate.key === operation.lineId);
    if (item === undefined) continue;
    removed.add(item.key);
    const attributes = lineAttributes(item.properties);
    requests.push({
      kind: 'remove',
      path: '/cart/change.js',
      body: { id: item.key, quantity: 0 },
      gift: { ruleId: operation.ruleId, campaignId: attributes[CAMPAIGN] ?? '', variantId: String(item.id) },
    });
  }
  for (const operation of operations) {
    if (operation.type === 'add') requests.push(addRequest(operation.variantId, operation.quantity, operation.attributes));
  }
  for (const item of cart.items) {
    if (removed.has(item.key) || !isGiftItem(item) || item.quantity === 1) continue;
    const attributes = lineAttributes(item.properties);
    if (attributes[LOCK] !== 'true') continue;
    requests.push({
      kind: 'lock',
      path: '/cart/change.js',
      body: { id: item.key, quantity: 1 },
      gift: { ruleId: attributes[RULE] ?? '', campaignId: attributes[CAMPAIGN] ?? '', variantId: String(item.id) },
    });
  }
  return requests;
}
