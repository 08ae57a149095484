/**
 * The core of one evaluation pass, without the DOM: read the cart, plan with the engine,
 * apply the plan through the cart port, read again and re-plan, at most MAX_ROUNDS times.
 * A gift the cart refuses (422) is remembered for that cart state, so the planner skips it
 * (or falls back) instead of trying again. The theme script (script/runtime.ts) wraps it
 * with the widgets; tests drive it with a fake cart.
 */
import { planCart } from '@gcrs/engine/planner';
import type { CartOperation, CompiledRules, EvaluationContext, RedemptionCounts, RuleResult } from '@gcrs/engine/planner';
import type { AjaxCart, Shopper } from './ajax-cart.ts';
import { cartStateKey, toEvaluationContext } from './ajax-cart.ts';
import { cartRequests } from './cart-actions.ts';
import type { CartRequest } from './cart-actions.ts';
import { storefrontEvent } from './events.ts';
import type { StorefrontEvent } from './events.ts';
import type { Refusals } from './retry.ts';

/** What a pass needs of the cart: read it, and send one call (retries are the port's business). */
export type CartPort = {
  getCart(): Promise<AjaxCart>;
  send(request: CartRequest): Promise<{ kind: 'ok'; body: unknown } | { kind: 'refused' } | { kind: 'failed'; status: number }>;
};

export type PassOptions = {
  rules: CompiledRules;
  shopper: Shopper;
  collections?: Record<string, Array<string | number>> | undefined;
  visitorId: string;
  refusals: Refusals;
  collectCartTokens: boolean;
  /**
   * The signed-in customer's redemption counts by rule id (`{proxy}/redemptions`), for rules
   * with `maxPerCustomer`; absent: such rules give nothing (an unknown customer).
   */
  redemptions?: RedemptionCounts | undefined;
  /** Full traces in the results (the debug console). */
  trace?: boolean;
  /** Called with each plan (the debug console). */
  onPlan?: (ctx: EvaluationContext, results: RuleResult[], operations: CartOperation[]) => void;
};

export type PassOutcome = {
  /** The last plan: what is still to do (normally only `choose`). */
  results: RuleResult[];
  operations: CartOperation[];
  /** Whether a call of this pass changed the cart. */
  changed: boolean;
  /** The cart the pass ended with. */
  cart: AjaxCart;
  /** The events to report (SPEC's schema). */
  events: StorefrontEvent[];
  /** Each gift added: its request and the `/cart/add.js` answer (for the toast). */
  added: Array<{ request: CartRequest; body: unknown }>;
};

/** At most this many plan → apply rounds per pass (a refused add re-plans once for a fallback). */
export const MAX_ROUNDS = 3;

/**
 * @example const outcome = await runCartPass(cartPort, { rules, shopper, visitorId, refusals, collectCartTokens: false });
 */
export async function runCartPass(port: CartPort, options: PassOptions): Promise<PassOutcome> {
  const { rules, refusals } = options;
  let cart = await port.getCart();
  const outcome: PassOutcome = { results: [], operations: [], changed: false, cart, events: [], added: [] };
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const stateKey = cartStateKey(cart);
    const ctx = toEvaluationContext(cart, options.shopper, options.collections);
    const plan = planCart(rules, ctx, {
      visitorId: options.visitorId,
      trace: options.trace === true,
      redemptions: options.redemptions,
      availability: (variantId) => !refusals.isRefused(stateKey, variantId),
    });
    outcome.results = plan.results;
    outcome.operations = plan.operations;
    options.onPlan?.(ctx, plan.results, plan.operations);
    const requests = cartRequests(plan.operations, cart);
    if (requests.length === 0) break;
    const completed = await applyRequests(port, requests, stateKey, cart, options, outcome);
    cart = await port.getCart();
    if (!completed) break;
  }
  outcome.cart = cart;
  return outcome;
}

/**
 * Sends the requests in order, recording events (with `cart`'s token when the shop allows it), the
 * gifts added and the refusals (for `stateKey`); false when one failed (the pass stops). The theme
 * script's gift choice sends the chosen gift through it too.
 *
 * @example await applyRequests(port, [addRequest(variantId, 1, attributes)], cartStateKey(cart), cart, options, outcome)
 */
export async function applyRequests(
  port: Pick<CartPort, 'send'>,
  requests: CartRequest[],
  stateKey: string,
  cart: AjaxCart,
  options: { refusals: Refusals; collectCartTokens: boolean },
  outcome: Pick<PassOutcome, 'changed' | 'events' | 'added'>,
): Promise<boolean> {
  const privacy = { cartToken: cart.token, collectCartTokens: options.collectCartTokens };
  for (const request of requests) {
    const answer = await port.send(request);
    if (answer.kind === 'ok') {
      outcome.changed = true;
      if (request.kind === 'add') {
        outcome.events.push(storefrontEvent('gift_added', request.gift, privacy));
        outcome.added.push({ request, body: answer.body });
      } else if (request.kind === 'remove') {
        outcome.events.push(storefrontEvent('gift_removed', request.gift, privacy));
      }
    } else if (answer.kind === 'refused' && request.kind === 'add') {
      // Sold out: not retried while the cart stays in this state (CONTRACT "never loops").
      options.refusals.refuse(stateKey, request.gift.variantId);
    } else {
      return false;
    }
  }
  return true;
}
