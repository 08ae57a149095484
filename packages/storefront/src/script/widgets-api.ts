/**
 * The seam between the two assets of gifts.js: the first load (main.ts: the engine, the cart
 * passes, the progress bar) and the on-demand chunk (widgets-chunk.ts: the toast, the gift
 * choice, the reminder, the promo popup, custom code and the debug console), which the first
 * load fetches the first time one of them is needed and which registers itself on
 * `window.svcGiftsWidgets`. Types only: nothing here is in either bundle.
 */
import type { CartOperation, ChooseOperation, EvaluationContext, RuleResult } from '@gcrs/engine/planner';
import type { CustomCode, PromoPopupSettings, ToastSettings, WidgetSettings } from '../widgets/settings.ts';

/** What the first load lends the gift choice. */
export type ChoiceHost = {
  widgets: WidgetSettings | undefined;
  /** Gift variant id → the name a shopper reads (the payload's `giftTitles`). */
  giftTitles: Record<string, string>;
  /** Adds the chosen gift: the cart call, the events and a pass (runtime.ts). */
  choose(ruleId: string, variantId: string): Promise<boolean>;
  /** Reports `choice_shown` for the operation's first option. */
  shown(operation: ChooseOperation): void;
};

export type WidgetsChunk = {
  toast(settings: ToastSettings, giftTitle: string): void;
  /** The promo popup now (once per session when the settings say so). */
  promo(settings: PromoPopupSettings): void;
  customCode(code: CustomCode): void;
  /** The gift choice and reminder: returns the renderer of the waiting `choose` operations (none: both withdrawn). */
  choices(host: ChoiceHost): (pending: ChooseOperation[]) => void;
  /** `?svc_debug=1`: one evaluation's trace in the console. */
  trace(ctx: EvaluationContext, results: RuleResult[], operations: CartOperation[]): void;
};

declare global {
  interface Window {
    svcGiftsWidgets?: WidgetsChunk;
  }
}
