/**
 * The reminder (`widgets.reminder`): a shopper who qualifies for a customer-choice gift but
 * has not chosen it sees the message with a button that opens the choice. With
 * `showInCartDrawer` it goes into the theme's `[data-svc-gifts-reminder]` block (in the cart
 * drawer) when there is one, else it is a bar at the bottom of the page; on a product page it
 * shows only with `showOnProductPage`.
 */
import { CONTROLS_CSS } from './dialog.ts';
import { h, removeHost, shadowHost } from './dom.ts';
import { isProductPage, thisPage } from './page-kind.ts';
import type { WidgetPlace } from './page-kind.ts';
import type { ReminderSettings } from './settings.ts';
import { pageLocale, translated } from './translate.ts';

const HOST = 'svc-gifts-reminder';
let timer: ReturnType<typeof setTimeout> | undefined;

export function showReminder(given: ReminderSettings, onOpen: () => void, place: WidgetPlace = thisPage()): void {
  const settings = translated(given, pageLocale());
  clearTimeout(timer);
  if (isProductPage(place.path) && !settings.showOnProductPage) {
    removeHost(HOST);
    return;
  }
  timer = setTimeout(() => {
    const target = settings.showInCartDrawer ? place.root.querySelector('[data-svc-gifts-reminder]') : null;
    const fixed = target === null ? 'position:fixed;bottom:0;left:0;right:0;z-index:2147482000;' : '';
    const root = shadowHost(
      HOST,
      CONTROLS_CSS + `.reminder{${fixed}display:flex;gap:12px;align-items:center;justify-content:center;flex-wrap:wrap;padding:10px 16px;background:#fef3c7;color:#111827}`,
      target ?? place.root,
    );
    const open = h('button', { type: 'button' }, settings.buttonLabel);
    open.addEventListener('click', onOpen);
    root.append(h('div', { class: 'reminder', 'data-placement': target === null ? 'bottom' : 'block', role: 'region', 'aria-label': settings.regionLabel }, h('span', {}, settings.message), open));
  }, settings.delaySeconds * 1000);
}

export function hideReminder(): void {
  clearTimeout(timer);
  removeHost(HOST);
}
