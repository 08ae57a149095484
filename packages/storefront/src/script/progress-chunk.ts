/**
 * gifts-progress.js, the progress bar's chunk (widgets-api.ts): fetched once the bar can be seen
 * (progress-gate.ts) on a page whose shop has the bar on, registered on `window.svcGiftsProgress`.
 * A shop without the bar never loads it. It makes the bar's view of each pass itself (the
 * non-gift subtotal, the currencies, the steps' rules): bytes the first load need not carry.
 */
import { merchandiseSubtotal } from '../ajax-cart.ts';
import type { StepRule } from '../progress.ts';
import { renderProgressBar } from '../widgets/progress-bar.ts';
import type { ProgressChunk } from './widgets-api.ts';

const chunk: ProgressChunk = {
  // The bar's steps come from the live rules, resolved for this cart by the bar, which hides
  // itself when no rule has a threshold in the cart's currency.
  render: (settings, { cart, rules, payload, config, results }) =>
    renderProgressBar(settings, {
      subtotal: merchandiseSubtotal(cart, rules.useDiscountedPrices),
      currency: (config.currency ?? cart.currency ?? '').toUpperCase(),
      baseCurrency: rules.baseCurrency.toUpperCase(),
      market: config.market,
      locale: config.locale,
      rules: payload.rules as StepRule[],
      results,
      giftTitles: payload.giftTitles ?? {},
    }),
};
window.svcGiftsProgress ??= chunk;
