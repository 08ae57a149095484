/**
 * The theme script's passes around the DOM: one pass at a time (a pass asked for while
 * one runs follows it), the cart work in cart-pass.ts, then events, the toast, customer
 * choices, the progress bar and reminder, `window.svcGifts.lastResult` and the
 * `svc:gifts:updated` event.
 */
import { compileRules } from '@gcrs/engine/planner';
import type { CartOperation, ChooseOperation, CompiledRules, EvaluationContext, RuleResult, RulesPayloadInput } from '@gcrs/engine/planner';
import type { AjaxCart } from '../ajax-cart.ts';
import { cartStateKey, merchandiseSubtotal } from '../ajax-cart.ts';
import { addRequest } from '../cart-actions.ts';
import { runCartPass } from '../cart-pass.ts';
import { storefrontEvent } from '../events.ts';
import type { StorefrontEvent, StorefrontEventType } from '../events.ts';
import { createRefusals } from '../retry.ts';
import type { ScriptConfig } from '../script-config.ts';
import { openGiftChoice } from '../widgets/gift-choice.ts';
import { renderProgressBar, hideProgressBar } from '../widgets/progress-bar.ts';
import { hideReminder, showReminder } from '../widgets/reminder.ts';
import type { WidgetSettings } from '../widgets/settings.ts';
import { enabledSection } from '../widgets/settings.ts';
import { showToast } from '../widgets/toast.ts';
import type { CartClient } from './cart-client.ts';

/**
 * The storefront rules payload: SPEC's plus `collections` and `debugAllowed` (CONTRACT), and
 * `giftTitles` (gift variant id → the name a shopper reads) for the gift choice.
 */
export type StorefrontPayload = Omit<RulesPayloadInput, 'baseCurrency'> & {
  baseCurrency?: string;
  widgets?: WidgetSettings;
  debugAllowed?: boolean;
  collections?: Record<string, Array<string | number>>;
  giftTitles?: Record<string, string>;
};

export type LastResult = { results: RuleResult[]; operations: CartOperation[] };

const DECLINED_KEY = 'svc_gifts_declined';

export type Runtime = {
  pass(): Promise<void>;
  choose(ruleId: string, variantId: string): Promise<boolean>;
  readonly lastResult: LastResult | undefined;
  readonly evaluationDelay: number;
};

export function createRuntime(deps: { config: ScriptConfig; client: CartClient; payload: StorefrontPayload; visitorId: string }): Runtime {
  const { config, client, payload, visitorId } = deps;
  const refusals = createRefusals();
  const widgets = payload.widgets;
  const collectCartTokens = payload.shopSettings?.data?.collectCartTokens === true;
  const debug = config.debugRequested && payload.debugAllowed === true;
  const declined = readDeclined();
  let compiled: CompiledRules | undefined;
  let redemptions: Promise<Record<string, number> | undefined> | undefined;
  let lastResult: LastResult | undefined;
  let lastCart: AjaxCart | undefined;
  let pendingChooses: ChooseOperation[] = [];
  let openChoice: { ruleId: string; close: () => void } | undefined;
  let running: Promise<void> | undefined;
  /** A chosen gift was added since the last pass: that pass reports the cart as changed. */
  let changedSincePass = false;
  let again = false;

  const eventOf = (type: StorefrontEventType, gift: { campaignId: string; ruleId: string; variantId: string }): StorefrontEvent =>
    storefrontEvent(type, gift, { cartToken: lastCart?.token, collectCartTokens });

  function compiledRules(): CompiledRules {
    // The server always sends baseCurrency; without it, thresholds count only in data-currency.
    compiled ??= compileRules({ ...payload, baseCurrency: payload.baseCurrency ?? config.currency ?? '' } as RulesPayloadInput);
    return compiled;
  }

  /**
   * Per-customer limits: the signed-in customer's counts, fetched once per page and only when a
   * rule has `maxPerCustomer` (they change only when an order completes, which ends the cart).
   * An anonymous shopper has none to fetch: such rules give nothing to them.
   */
  function customerRedemptions(rules: CompiledRules): Promise<Record<string, number> | undefined> {
    if (!config.loggedIn || config.customerId === undefined || !rules.rules.some((rule) => rule.options?.maxPerCustomer !== undefined)) return Promise.resolve(undefined);
    // A failed call is asked again by the next pass; until then the limited rules give nothing.
    redemptions ??= client.getRedemptions().then((counts) => {
      if (counts === undefined) redemptions = undefined;
      return counts;
    });
    return redemptions;
  }

  function toast(added: unknown, fallbackTitle: string | undefined): void {
    const settings = enabledSection(widgets, 'toast');
    if (settings === undefined) return;
    const item = (added as { items?: Array<{ product_title?: string; title?: string }> } | null)?.items?.[0];
    showToast(settings, item?.product_title ?? item?.title ?? fallbackTitle ?? 'A free gift');
  }

  async function runPass(): Promise<void> {
    const rules = compiledRules();
    const outcome = await runCartPass(client, {
      rules,
      redemptions: await customerRedemptions(rules),
      shopper: config,
      collections: payload.collections,
      visitorId,
      refusals,
      collectCartTokens,
      trace: debug,
      ...(debug ? { onPlan: logTrace } : {}),
    });
    client.sendEvents(outcome.events);
    for (const { request, body } of outcome.added) if (request.kind === 'add') toast(body, request.body.items[0]?.properties._svc_title);
    const changed = outcome.changed || changedSincePass;
    changedSincePass = false;
    const cart = outcome.cart;
    lastCart = cart;
    lastResult = { results: outcome.results, operations: outcome.operations };
    pendingChooses = outcome.operations.filter((operation): operation is ChooseOperation => operation.type === 'choose');
    renderWidgets(cart, rules);
    document.dispatchEvent(new CustomEvent('svc:gifts:updated', { detail: { ...lastResult, changed, cart } }));
  }

  function renderWidgets(cart: AjaxCart, rules: CompiledRules): void {
    const progress = enabledSection(widgets, 'progressBar');
    if (progress === undefined) hideProgressBar();
    else {
      const currency = (config.currency ?? cart.currency ?? '').toUpperCase();
      renderProgressBar(progress, merchandiseSubtotal(cart, rules.useDiscountedPrices), currency, rules.baseCurrency.toUpperCase());
    }
    // A choice whose rule no longer waits for one (the cart dropped below it) is withdrawn.
    const shown = openChoice;
    if (shown !== undefined && !pendingChooses.some((operation) => operation.ruleId === shown.ruleId)) {
      openChoice = undefined;
      shown.close();
    }
    const choice = enabledSection(widgets, 'giftChoice');
    const waiting = pendingChooses.filter((operation) => !declined.has(operation.ruleId));
    const first = waiting[0];
    if (choice !== undefined && first !== undefined && openChoice === undefined) offerChoice(first);
    const reminder = enabledSection(widgets, 'reminder');
    const unchosen = pendingChooses[0];
    if (reminder !== undefined && unchosen !== undefined && openChoice === undefined && (choice === undefined || declined.has(unchosen.ruleId))) {
      showReminder(reminder, () => {
        hideReminder();
        offerChoice(unchosen);
      });
    } else {
      hideReminder();
    }
  }

  function offerChoice(operation: ChooseOperation): void {
    const settings = enabledSection(widgets, 'giftChoice');
    const firstOption = operation.options[0];
    if (settings === undefined || firstOption === undefined || openChoice !== undefined) return;
    client.sendEvents([eventOf('choice_shown', { ...operation, variantId: firstOption.variantId })]);
    const title = operation.attributes._svc_title ?? 'Gift';
    const names = payload.giftTitles ?? {};
    const dialog = openGiftChoice(
      settings,
      operation,
      // The catalog's name when the service knows the gift, else the rule's title, numbered.
      (variantId, index) => names[variantId] ?? (operation.options.length > 1 ? `${title} ${index + 1}` : title),
      (variantId) => {
        openChoice = undefined;
        void choose(operation.ruleId, variantId);
      },
      () => {
        if (openChoice === undefined) return; // withdrawn by the script, not declined by the shopper
        openChoice = undefined;
        declined.add(operation.ruleId);
        writeDeclined(declined);
        if (lastCart !== undefined && compiled !== undefined) renderWidgets(lastCart, compiled);
      },
    );
    openChoice = { ruleId: operation.ruleId, close: dialog.close };
  }

  async function choose(ruleId: string, variantId: string): Promise<boolean> {
    const operation = pendingChooses.find((candidate) => candidate.ruleId === ruleId);
    const option = operation?.options.find((candidate) => candidate.variantId === variantId);
    if (operation === undefined || option === undefined) return false;
    const request = addRequest(option.variantId, option.quantity, operation.attributes);
    const events = [eventOf('choice_selected', request.gift)];
    const outcome = await client.send(request);
    if (outcome.kind === 'ok') {
      changedSincePass = true;
      events.push(eventOf('gift_added', request.gift));
      toast(outcome.body, operation.attributes._svc_title);
    } else if (outcome.kind === 'refused' && lastCart !== undefined) {
      refusals.refuse(cartStateKey(lastCart), option.variantId);
    }
    client.sendEvents(events);
    await pass();
    return outcome.kind === 'ok';
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

function logTrace(ctx: EvaluationContext, results: RuleResult[], operations: CartOperation[]): void {
  console.groupCollapsed(`[svc-gifts] evaluation: ${results.filter((result) => result.matched).length}/${results.length} rules matched, ${operations.length} operations`);
  console.log('context', ctx);
  for (const result of results) console.log(result.matched ? 'matched' : 'not matched', result.ruleId, result.reasons, result.trace);
  console.log('operations', operations);
  console.groupEnd();
}

function readDeclined(): Set<string> {
  try {
    return new Set<string>(JSON.parse(sessionStorage.getItem(DECLINED_KEY) ?? '[]') as string[]);
  } catch {
    return new Set<string>();
  }
}

function writeDeclined(declined: Set<string>): void {
  try {
    sessionStorage.setItem(DECLINED_KEY, JSON.stringify([...declined]));
  } catch {
    // Storage blocked: the choice is offered again on the next page.
  }
}
