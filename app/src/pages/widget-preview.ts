/**
 * The Widgets page's live preview: one widget drawn by the storefront script's own renderer
 * (toast, progress bar, promo popup, gift choice, reminder) into a box of the page, which is
 * transformed so that what the storefront fixes to the window stays inside it.
 */
import type { WidgetSectionKey } from '@gcrs/engine';
import { openGiftChoice } from '../../../packages/storefront/src/widgets/gift-choice.ts';
import { hideProgressBar, renderProgressBar } from '../../../packages/storefront/src/widgets/progress-bar.ts';
import { openPromoPopup } from '../../../packages/storefront/src/widgets/promo-popup.ts';
import { hideReminder, showReminder } from '../../../packages/storefront/src/widgets/reminder.ts';
import { showToast } from '../../../packages/storefront/src/widgets/toast.ts';
import { translated } from '../../../packages/storefront/src/widgets/translate.ts';
import type { Widgets } from '../api/client.ts';
import { liveSteps } from './ProgressSteps.tsx';
import type { LiveRule } from './ProgressSteps.tsx';

/** The live rules and the names of their gifts, for the progress bar's steps and its preview. */
export type Live = { rules: LiveRule[]; titles: Record<string, string> };

/** A rule for the preview when no live rule has a threshold yet: spend 50.00, get a gift. */
const SAMPLE_RULE = { id: 'preview', conditionTree: { type: 'cart.subtotal_gte', value: 5000 }, giftConfig: { gifts: [{ variantId: 'preview' }] } };

/** A section's texts in `locale` ('' for the shop's default), as a shopper in it would read them. */
function inLocale<S extends Parameters<typeof translated>[0]>(settings: S, locale: string): S {
  return { ...(locale === '' ? settings : translated(settings, locale)), translations: {} };
}

/** Draws the `which` widget into `host`, replacing what was there, in `locale` ('' for the default). */
export function drawPreview(host: HTMLElement, given: Widgets, which: WidgetSectionKey, currency: string, live: Live | undefined, locale = ''): void {
  const widgets = { toast: inLocale(given.toast, locale), progressBar: inLocale(given.progressBar, locale), promoPopup: inLocale(given.promoPopup, locale), giftChoice: inLocale(given.giftChoice, locale), reminder: inLocale(given.reminder, locale) };
  host.replaceChildren();
  clearPreview();
  // The preview is a cart page with the theme's block in it (where `cart_drawer`, `inline` and
  // the reminder go); what the storefront fixes to the window stays inside the box.
  const holder = document.createElement('div');
  const block = document.createElement('div');
  block.setAttribute('data-svc-gifts-progress', '');
  block.setAttribute('data-svc-gifts-reminder', '');
  block.style.margin = '12px';
  holder.append(block);
  host.append(holder);
  const place = { root: holder, path: '/cart' };
  if (which === 'toast') showToast({ ...widgets.toast, durationMs: 3_600_000 }, 'Mug', undefined, holder);
  else if (which === 'progressBar') {
    // The storefront's own steps, from the live rules, shown 60 % of the way to the first.
    const rules = live && liveSteps(live.rules).length > 0 ? live.rules : [SAMPLE_RULE];
    const results = rules.map((rule) => ({ ruleId: rule.id, campaignId: '', matched: false, reasons: ['subtotal_below_threshold'] }));
    const first = live ? (liveSteps(live.rules)[0]?.value ?? 5000) : 5000;
    const view = { subtotal: Math.round(first * 0.6), currency, baseCurrency: currency, market: undefined, locale: undefined, rules, results, giftTitles: { preview: 'Mug', ...live?.titles } };
    renderProgressBar(widgets.progressBar, view, place);
  } else if (which === 'promoPopup') openPromoPopup(widgets.promoPopup, { parent: holder, focus: false });
  else if (which === 'giftChoice')
    openGiftChoice(
      widgets.giftChoice,
      { type: 'choose', ruleId: 'preview', campaignId: 'preview', options: [{ variantId: 'a', quantity: 1 }, { variantId: 'b', quantity: 1 }], attributes: {} },
      (_variantId, index) => ['Mug', 'Tote bag'][index] ?? 'Gift',
      () => {},
      () => {},
      // Sample prices in the shop's currency, struck through when `showPrices` is on.
      { parent: holder, focus: false, price: (variantId) => ({ amount: variantId === 'a' ? 1200 : 2500, currency }) },
    );
  else showReminder({ ...widgets.reminder, delaySeconds: 0 }, () => {}, place);
}

/** Removes what the preview drew outside its box (the bar and reminder look for their host by id). */
export function clearPreview(): void {
  hideProgressBar();
  hideReminder();
}
