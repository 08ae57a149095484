/**
 * The progress bar toward the next step of the live rules (`widgets.progressBar`, steps from
 * progress.ts), with the amount left to spend and the gift it unlocks; with several steps (a tier
 * ladder) each step below the bar, its amount and gifts, the passed ones ticked, the next marked.
 * Where, by `placement`: `cart_drawer` into the theme's `[data-svc-gifts-progress]` block on every
 * page, `cart_page` into it on the cart page only, `announcement_bar` across the top of every page;
 * without the block, the first two are fixed to the top of the page too.
 */
import { fillTemplate, formatMoney, progressSteps, progressToward } from '../progress.ts';
import type { ProgressThreshold } from '../progress.ts';
import type { ProgressView } from '../script/widgets-api.ts';
import { h, removeHost, shadowHost } from './dom.ts';
import { isCartPage, thisPage } from './page-kind.ts';
import type { WidgetPlace } from './page-kind.ts';
import type { ProgressBarSettings } from './settings.ts';
import { translated } from './translate.ts';

const HOST = 'svc-gifts-progress';

/**
 * Renders the bar, or hides it when no live rule has a threshold for this cart (none in its
 * currency: no override and not the base currency); amounts in `view.locale` (the embed's
 * `data-locale`), else the page's `lang`.
 */
export function renderProgressBar(given: ProgressBarSettings, view: ProgressView, place: WidgetPlace = thisPage()): void {
  const locale = view.locale || document.documentElement.lang;
  const settings = translated(given, locale);
  const { currency } = view;
  const steps = progressSteps(view.rules, view.results, { currency, baseCurrency: view.baseCurrency, marketHandle: view.market });
  if (steps.length === 0 || (settings.placement === 'cart_page' && !isCartPage(place.path))) {
    removeHost(HOST);
    return;
  }
  const progress = progressToward(view.subtotal, steps);
  const titles = (step: ProgressThreshold | undefined) => {
    const gifts = (step?.gifts ?? []).map((id) => view.giftTitles[id] ?? settings.unknownGiftTitle).join(', ') || settings.unknownGiftTitle;
    return step?.choice ? fillTemplate(settings.choiceText, { gifts }) : gifts;
  };
  const gift = titles(progress.next);
  const target = settings.placement === 'announcement_bar' ? null : place.root.querySelector('[data-svc-gifts-progress]');
  const fixed = target === null ? 'position:fixed;top:0;left:0;right:0;z-index:2147482000;' : '';
  const root = shadowHost(
    HOST,
    `.bar{${fixed}padding:10px 16px;background:#fff;color:#111827;text-align:center;border-bottom:1px solid #e5e7eb}` +
      `.track{height:8px;border-radius:4px;margin-top:6px;overflow:hidden}.fill{height:100%}` +
      `ol{display:flex;flex-wrap:wrap;gap:4px 16px;justify-content:space-between;list-style:none;margin:6px 0 0;padding:0;font-size:13px}[aria-current]{font-weight:600}`,
    target ?? place.root,
  );
  const message = progress.complete
    ? settings.completedMessage
    : fillTemplate(settings.message, { remaining: formatMoney(progress.remaining, currency, locale || undefined), gift });
  const label = h('p', { id: 'svc-progress-label', style: 'margin:0' }, message);
  const track = h(
    'div',
    {
      class: 'track',
      role: 'progressbar',
      'aria-labelledby': 'svc-progress-label',
      'aria-valuemin': '0',
      'aria-valuemax': '100',
      'aria-valuenow': String(progress.percent),
      style: `background:${settings.backgroundColor}`,
    },
    h('div', { class: 'fill', style: `width:${progress.percent}%;background:${settings.barColor}` }),
  );
  // A ladder (several steps): every step with its amount and gifts, the passed ones ticked, the next one marked.
  const list =
    steps.length > 1
      ? h(
          'ol',
          { 'aria-label': settings.stepsLabel },
          ...steps.map((step) => {
            const reached = step.amountCents <= view.subtotal;
            return h('li', { 'data-reached': reached ? '' : undefined, 'aria-current': step === progress.next ? 'step' : undefined }, `${reached ? '✓ ' : ''}${formatMoney(step.amountCents, currency, locale || undefined)}: ${titles(step)}`);
          }),
        )
      : '';
  root.append(h('div', { class: 'bar', 'data-placement': target === null ? 'top' : 'block', 'data-remaining': String(progress.remaining), 'data-next': String(progress.next?.amountCents ?? '') }, label, track, list));
}

export function hideProgressBar(): void {
  removeHost(HOST);
}
