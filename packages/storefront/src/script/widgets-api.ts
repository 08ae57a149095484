/**
 * The seam between the assets of gifts.js: the first load (main.ts: the engine, the cart
 * passes) and its on-demand chunks, each fetched the first time it is needed (load-chunk.ts)
 * and registered on a global of its own: `window.svcGiftsWidgets` (widgets-chunk.ts: the toast,
 * the gift choice, the reminder, the promo popup, custom code), `window.svcGiftsProgress`
 * (progress-chunk.ts: the progress bar) and `window.svcGiftsDebug` (debug-chunk.ts: the
 * `?svc_debug=1` console). Types only: nothing here is in any bundle.
 */
import type { CartOperation, ChooseOperation, CompiledRules, EvaluationContext, RedemptionCounts, RuleResult, RulesPayloadInput } from '@gcrs/engine/planner';
import type { AjaxCart, AjaxCartItem } from '../ajax-cart.ts';
import type { PassOutcome } from '../cart-pass.ts';
import type { StepRule } from '../progress.ts';
import type { ScriptConfig } from '../script-config.ts';
import type { CustomCode, ProgressBarSettings, PromoPopupSettings, ToastSettings, WidgetSettings } from '../widgets/settings.ts';

/**
 * The storefront rules payload: SPEC's plus `collections` and `debugAllowed` (CONTRACT), and
 * `giftTitles` (gift variant id → the name a shopper reads) and `giftPrices` (→ its price in
 * minor units of `baseCurrency`) for the gift choice.
 */
export type StorefrontPayload = Omit<RulesPayloadInput, 'baseCurrency'> & {
  baseCurrency?: string;
  widgets?: WidgetSettings;
  debugAllowed?: boolean;
  collections?: Record<string, Array<string | number>>;
  giftTitles?: Record<string, string>;
  giftPrices?: Record<string, number>;
};

/** What the first load lends the gift choice. */
export type ChoiceHost = {
  /**
   * The storefront payload as fetched: its `widgets`, `giftTitles` (gift variant id → the name a
   * shopper reads), `giftPrices` (→ minor units of `baseCurrency`). The whole object, so that
   * what the choice reads of it costs the first load nothing.
   */
  payload: StorefrontPayload;
  /** Adds the chosen gift: the cart call, the events and a pass (runtime.ts). */
  choose(ruleId: string, variantId: string): Promise<boolean>;
  /** Reports `choice_shown` for the operation's first option. */
  shown(operation: ChooseOperation): void;
};

/** The gift line a toast speaks of: it goes when no cart line has this rule and variant (numeric id). */
export type ToastGift = { ruleId: string; variantId: string };

export type WidgetsChunk = {
  /** A toast for the last gift a pass or a choice added (`added`: each add request with its `/cart/add.js` answer, which names the gift). */
  toast(settings: ToastSettings, added: PassOutcome['added']): void;
  /** After each pass of a page that showed a toast: removes it when its gift line left the cart. */
  cart(items: AjaxCartItem[]): void;
  /** The promo popup now (once per session when the settings say so). */
  promo(settings: PromoPopupSettings): void;
  customCode(code: CustomCode): void;
  /**
   * The gift choice and reminder: returns the renderer of the waiting `choose` operations (none:
   * both withdrawn), told the cart's currency (the gifts' prices are shown only in the shop's).
   */
  choices(host: ChoiceHost): (pending: ChooseOperation[], currency?: string) => void;
};

/** What the progress bar is drawn from: the cart, where it is, and the live rules with this pass's results. */
export type ProgressView = {
  /** The non-gift subtotal, minor units of `currency`. */
  subtotal: number;
  /** The cart currency and the shop's, upper-case. */
  currency: string;
  baseCurrency: string;
  market: string | undefined;
  locale: string | undefined;
  rules: StepRule[];
  results: RuleResult[];
  /** Gift variant id → the name a shopper reads (the payload's `giftTitles`). */
  giftTitles: Record<string, string>;
};

/**
 * What the first load hands the bar's chunk after each pass, as it has it: the chunk makes the
 * {@link ProgressView} of it (progress-chunk.ts), so that code is not in the first load.
 */
export type ProgressPass = {
  cart: AjaxCart;
  /** The compiled rules: their base currency and whether thresholds count discounted prices. */
  rules: Pick<CompiledRules, 'baseCurrency' | 'useDiscountedPrices'>;
  payload: Pick<StorefrontPayload, 'rules' | 'giftTitles'>;
  config: Pick<ScriptConfig, 'currency' | 'market' | 'locale'>;
  results: RuleResult[];
};

export type ProgressChunk = {
  /** Draws the bar toward the next step of the live rules, or hides it when there is none for this cart. */
  render(settings: ProgressBarSettings, pass: ProgressPass): void;
};

/** What the first load evaluated in one plan, for the debug console to trace again. */
export type DebugPlan = {
  /** The payload the first load compiled (with its base currency). */
  payload: RulesPayloadInput;
  ctx: EvaluationContext;
  visitorId: string;
  redemptions: RedemptionCounts | undefined;
  results: RuleResult[];
  operations: CartOperation[];
};

export type DebugChunk = {
  /**
   * `?svc_debug=1`: evaluates the plan's cart again with condition traces, puts each rule's trace
   * on its result (`window.svcGifts.lastResult` shows them) and logs the evaluation.
   */
  trace(plan: DebugPlan): void;
};

declare global {
  interface Window {
    svcGiftsWidgets?: WidgetsChunk;
    svcGiftsProgress?: ProgressChunk;
    svcGiftsDebug?: DebugChunk;
  }
}
