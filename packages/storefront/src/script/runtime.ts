/**
 * The theme script's passes around the DOM: one pass at a time (a pass asked for while
 * one runs follows it), the cart work in cart-pass.ts, then events, the progress bar,
 * `window.svcGifts.lastResult` and the `svc:gifts:updated` event. The toast, the gift choice
 * and the reminder are drawn by the on-demand chunk (`widgets`), fetched the first time one of
 * them has something to show; the progress bar and the debug console by chunks of their own.
 */
import { compileRules } from '@gcrs/engine/planner';
import type { CartOperation, ChooseOperation, CompiledRules, RuleResult, RulesPayloadInput } from '@gcrs/engine/planner';
import type { AjaxCart } from '../ajax-cart.ts';
import { cartStateKey } from '../ajax-cart.ts';
import { addRequest } from '../cart-actions.ts';
import { applyRequests, runCartPass } from '../cart-pass.ts';
import type { PassOutcome } from '../cart-pass.ts';
import { storefrontEvent } from '../events.ts';
import type { StorefrontEvent, StorefrontEventType } from '../events.ts';
import { createRefusals } from '../retry.ts';
import type { ScriptConfig } from '../script-config.ts';
import type { ProgressBarSettings } from '../widgets/settings.ts';
import { enabledSection } from '../widgets/settings.ts';
import type { CartClient } from './cart-client.ts';
import type { ChoiceHost, DebugChunk, ProgressChunk, StorefrontPayload, WidgetsChunk } from './widgets-api.ts';

export type { StorefrontPayload } from './widgets-api.ts';

export type LastResult = { results: RuleResult[]; operations: CartOperation[] };

export type Runtime = {
  pass(): Promise<void>;
  choose(ruleId: string, variantId: string): Promise<boolean>;
  readonly lastResult: LastResult | undefined;
  readonly evaluationDelay: number;
};

export type RuntimeDeps = {
  config: ScriptConfig;
  client: CartClient;
  payload: StorefrontPayload;
  visitorId: string;
  /** The on-demand chunks (load-chunk.ts); the bar's once it can be seen by its placement (progress-gate.ts). */
  loadWidgets: () => Promise<WidgetsChunk>;
  loadProgress: (placement: ProgressBarSettings['placement']) => Promise<ProgressChunk>;
  loadDebug: () => Promise<DebugChunk>;
  report: (error: unknown) => void;
};

export function createRuntime(deps: RuntimeDeps): Runtime {
  const { config, client, payload, visitorId, report } = deps;
  const refusals = createRefusals();
  const widgets = payload.widgets;
  const collectCartTokens = payload.shopSettings?.data?.collectCartTokens === true;
  const debug = config.debugRequested && payload.debugAllowed === true;
  // The server always sends baseCurrency; without it, thresholds count only in data-currency.
  const compileInput = { ...payload, baseCurrency: payload.baseCurrency ?? config.currency ?? '' } as RulesPayloadInput;
  let redemptions: Promise<Record<string, number> | undefined> | undefined;
  let lastResult: LastResult | undefined;
  let lastCart: AjaxCart | undefined;
  let pendingChooses: ChooseOperation[] = [];
  let renderChoices: ReturnType<WidgetsChunk['choices']> | undefined;
  let running: Promise<void> | undefined;
  /** A chosen gift was added since the last pass: that pass reports the cart as changed. */
  let changedSincePass = false;
  let again = false;
  /** A toast was shown: every pass tells it the cart, so it goes with its gift line. */
  let toastShown = false;

  const eventOf = (type: StorefrontEventType, gift: { campaignId: string; ruleId: string; variantId: string }): StorefrontEvent =>
    storefrontEvent(type, gift, { cartToken: lastCart?.token, collectCartTokens });

  /**
   * Per-customer limits: the signed-in customer's counts, fetched once per page and only when a
   * rule has `maxPerCustomer` (they change only when an order completes, which ends the cart).
   * An anonymous shopper has none to fetch: such rules give nothing to them.
   */
  function customerRedemptions(rules: CompiledRules): Promise<Record<string, number> | undefined> | undefined {
    if (!config.loggedIn || config.customerId === undefined || !rules.rules.some((rule) => rule.options?.maxPerCustomer !== undefined)) return undefined;
    // A failed call is asked again by the next pass; until then the limited rules give nothing.
    redemptions ??= client.getRedemptions().then((counts) => {
      if (counts === undefined) redemptions = undefined;
      return counts;
    });
    return redemptions;
  }

  /**
   * Reports the events of a pass or a choice, and toasts the gifts it added (the chunk shows the
   * last one, naming it from the cart's answer: each toast replaced the one before).
   */
  function announce(outcome: Pick<PassOutcome, 'events' | 'added'>): void {
    client.sendEvents(outcome.events);
    const settings = enabledSection(widgets, 'toast');
    if (settings === undefined || outcome.added.length === 0) return;
    toastShown = true;
    deps.loadWidgets().then((chunk) => chunk.toast(settings, outcome.added), report);
  }

  async function runPass(): Promise<void> {
    // Compiled on the first pass, then the same object (compileRules memoises by payload object).
    const rules = compileRules(compileInput);
    const redemptionCounts = await customerRedemptions(rules);
    const outcome = await runCartPass(client, {
      rules,
      redemptions: redemptionCounts,
      shopper: config,
      collections: payload.collections,
      visitorId,
      refusals,
      collectCartTokens,
      // The debug console traces each plan again in its own chunk: this planner builds no traces.
      ...(debug
        ? {
            onPlan: (ctx, results, operations) => {
              deps.loadDebug().then((chunk) => chunk.trace({ payload: compileInput, ctx, visitorId, redemptions: redemptionCounts, results, operations }), report);
            },
          }
        : {}),
    });
    announce(outcome);
    const changed = outcome.changed || changedSincePass;
    changedSincePass = false;
    const cart = outcome.cart;
    lastCart = cart;
    lastResult = { results: outcome.results, operations: outcome.operations };
    pendingChooses = outcome.operations.filter((operation): operation is ChooseOperation => operation.type === 'choose');
    renderWidgets(cart, rules, outcome.results);
    document.dispatchEvent(new CustomEvent('svc:gifts:updated', { detail: { ...lastResult, changed, cart } }));
  }

  const choiceHost: ChoiceHost = {
    payload,
    choose,
    shown: (operation) => {
      const first = operation.options[0];
      if (first !== undefined) client.sendEvents([eventOf('choice_shown', { ...operation, variantId: first.variantId })]);
    },
  };

  function renderWidgets(cart: AjaxCart, rules: CompiledRules, results: RuleResult[]): void {
    const progress = enabledSection(widgets, 'progressBar');
    // The chunk makes the bar's view of this pass (progress-chunk.ts); draws wait for the gate in order.
    if (progress !== undefined) deps.loadProgress(progress.placement).then((chunk) => chunk.render(progress, { cart, rules, payload, config, results }), report);
    if (toastShown) deps.loadWidgets().then((chunk) => chunk.cart(cart.items), report);
    // The choice and the reminder wait for the shopper: their code is fetched when a choice
    // waits, and told each pass after that (an empty list withdraws what they show).
    const wanted = enabledSection(widgets, 'giftChoice') ?? enabledSection(widgets, 'reminder');
    if (wanted === undefined || (pendingChooses.length === 0 && renderChoices === undefined)) return;
    deps.loadWidgets().then((chunk) => {
      renderChoices ??= chunk.choices(choiceHost);
      renderChoices(pendingChooses, cart.currency);
    }, report);
  }

  async function choose(ruleId: string, variantId: string): Promise<boolean> {
    const operation = pendingChooses.find((candidate) => candidate.ruleId === ruleId);
    const option = operation?.options.find((candidate) => candidate.variantId === variantId);
    if (operation === undefined || option === undefined || lastCart === undefined) return false;
    const request = addRequest(option.variantId, option.quantity, operation.attributes);
    // The cart call as a pass makes it (events, refusal memory), after the choice's own event.
    const outcome: Pick<PassOutcome, 'changed' | 'events' | 'added'> = { changed: false, events: [eventOf('choice_selected', request.gift)], added: [] };
    await applyRequests(client, [request], cartStateKey(lastCart), lastCart, { refusals, collectCartTokens }, outcome);
    changedSincePass ||= outcome.changed;
    announce(outcome);
    await pass();
    return outcome.changed;
  }

  async function pass(): Promise<void> {
    if (running !== undefined) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await runPass();
        } while (again);
      } finally {
        running = undefined;
      }
    })();
    return running;
  }

  return {
    pass,
    choose,
    get lastResult() {
      return lastResult;
    },
    get evaluationDelay() {
      const delay = payload.shopSettings?.engine?.evaluationDelay;
      return typeof delay === 'number' && delay > 0 ? delay : 0;
    },
  };
}
