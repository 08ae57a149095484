/**
 * The progress bar toward the next step of the live rules (`widgets.progressBar`, steps from
 * progress.ts), with the amount left to spend and the gift it unlocks; with several steps (a tier
 * ladder) each step below the bar, its amount and gifts, the passed ones ticked, the next marked. It goes into the theme's `[data-svc-gifts-progress]` element when there is one
 * (a cart drawer or cart page section), else it is fixed to the top of the page.
 */
import { fillTemplate, formatMoney, progressSteps, progressToward } from '../progress.ts';
import type { ProgressThreshold } from '../progress.ts';
import type { ProgressView } from '../script/widgets-api.ts';
import { h, removeHost, shadowHost } from './dom.ts';
import type { ProgressBarSettings } from './settings.ts';

const HOST = 'svc-gifts-progress';

/**
 * Renders the bar, or hides it when no live rule has a threshold for this cart (none in its
 * currency: no override and not the base currency); amounts in `view.locale` (the embed's
 * `data-locale`), else the page's `lang`.
 */
export function renderProgressBar(settings: ProgressBarSettings, view: ProgressView): void {
  const { currency } = view;
  const steps = progressSteps(view.rules, view.results, { currency, baseCurrency: view.baseCurrency, marketHandle: view.market });
  if (steps.length === 0) {
    removeHost(HOST);
    return;
  }
  const progress = progressToward(view.subtotal, steps);
  const titles = (step: ProgressThreshold | undefined) => (step?.choice ? 'one of ' : '') + ((step?.gifts ?? []).map((id) => view.giftTitles[id] ?? 'a free gift').join(', ') || 'a free gift');
  const gift = titles(progress.next);
  const locale = view.locale || document.documentElement.lang || undefined;
  const target = document.querySelector('[data-svc-gifts-progress]');
  const fixed = target === null ? 'position:fixed;top:0;left:0;right:0;z-index:2147482000;' : '';
  const root = shadowHost(
    HOST,
    `.bar{${fixed}padding:10px 16px;background:#fff;color:#111827;text-align:center;border-bottom:1px solid #e5e7eb}` +
      `.track{height:8px;border-radius:4px;margin-top:6px;overflow:hidden}.fill{height:100%}` +
      `ol{display:flex;flex-wrap:wrap;gap:4px 16px;justify-content:space-between;list-style:none;margin:6px 0 0;padding:0;font-size:13px}[aria-current]{font-weight:600}`,
    target ?? document.body,
  );
  const message = progress.complete
    ? (settings.completedMessage ?? 'You unlocked a free gift!')
    : fillTemplate(settings.message ?? 'Spend {{remaining}} more to unlock your gift', { remaining: formatMoney(progress.remaining, currency, locale), gift });
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
      style: `background:${settings.backgroundColor ?? '#e5e7eb'}`,
    },
    h('div', { class: 'fill', style: `width:${progress.percent}%;background:${settings.barColor ?? '#16a34a'}` }),
  );
  // A ladder (several steps): every step with its amount and gifts, the passed ones ticked, the next one marked.
  const list =
    steps.length > 1
      ? h(
          'ol',
          { 'aria-label': 'Gift steps' },
          ...steps.map((step) => {
            const reached = step.amountCents <= view.subtotal;
            return h('li', { 'data-reached': reached ? '' : undefined, 'aria-current': step === progress.next ? 'step' : undefined }, `${reached ? '✓ ' : ''}${formatMoney(step.amountCents, currency, locale)}: ${titles(step)}`);
          }),
        )
      : '';
  root.append(h('div', { class: 'bar', 'data-remaining': String(progress.remaining), 'data-next': String(progress.next?.amountCents ?? '') }, label, track, list));
}

export function hideProgressBar(): void {
  removeHost(HOST);
}
