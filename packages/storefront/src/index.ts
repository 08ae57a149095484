// The ESM entry of @gcrs/storefront, for headless storefronts and tests. The theme script
// (gifts.js) is the IIFE bundle of src/script/main.ts; it uses the same modules.
export { compileRules, planCart, evaluateRules, applyOperations, giftLineAttributes, GIFT_ATTRIBUTE } from '@gcrs/engine/planner';
export type { CartOperation, AddOperation, RemoveOperation, UpdateOperation, ChooseOperation, CartPlan, RuleResult, RulesPayloadInput, EvaluationContext } from '@gcrs/engine/planner';
export { toEvaluationContext, lineAttributes, cartStateKey, isGiftItem, merchandiseSubtotal, toGid, toNumericId } from './ajax-cart.ts';
export type { AjaxCart, AjaxCartItem, Shopper } from './ajax-cart.ts';
export { addRequest, cartRequests } from './cart-actions.ts';
export type { AddRequest, ChangeRequest, CartRequest } from './cart-actions.ts';
export { MAX_ROUNDS, runCartPass } from './cart-pass.ts';
export type { CartPort, PassOptions, PassOutcome } from './cart-pass.ts';
export { MAX_RETRIES, retryDecision, createRefusals } from './retry.ts';
export type { RetryDecision, Refusals } from './retry.ts';
export { createDebouncer, isCartMutationUrl } from './debounce.ts';
export type { Timers } from './debounce.ts';
export { storefrontEvent, eventsBody } from './events.ts';
export type { StorefrontEvent, StorefrontEventType } from './events.ts';
export { VISITOR_COOKIE, readCookie, newVisitorId, visitorIdentity } from './visitor-id.ts';
export { DEFAULT_PROXY, readScriptConfig } from './script-config.ts';
export type { ScriptConfig } from './script-config.ts';
export { progressToward, formatMoney, fillTemplate } from './progress.ts';
export type { Progress, ProgressThreshold } from './progress.ts';
export {
  STOREFRONT_CART_FRAGMENT,
  CART_LINES_ADD,
  CART_LINES_REMOVE,
  CART_LINES_UPDATE,
  fromStorefrontCart,
  toCartMutations,
} from './headless.ts';
export type { StorefrontCart, StorefrontCartLine, StorefrontMutation } from './headless.ts';
