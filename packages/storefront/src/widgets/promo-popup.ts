/**
 * The promo popup (`widgets.promoPopup`), once per session when `showOncePerSession`. Its
 * trigger (promo-trigger.ts) is armed by the first load of gifts.js; this code is in the
 * on-demand chunk.
 */
import { openDialog } from './dialog.ts';
import { h } from './dom.ts';
import type { PromoPopupSettings } from './settings.ts';
import { pageLocale, translated } from './translate.ts';

const SEEN_KEY = 'svc_gifts_promo_seen';

function seen(): boolean {
  try {
    return sessionStorage.getItem(SEEN_KEY) === '1';
  } catch {
    return false;
  }
}

/** The popup now, unless the session has seen it and the settings say once per session. */
export function showPromoPopup(settings: PromoPopupSettings): void {
  if (settings.showOncePerSession) {
    if (seen()) return;
    try {
      sessionStorage.setItem(SEEN_KEY, '1');
    } catch {
      // Storage blocked: the popup may show again next page.
    }
  }
  openPromoPopup(settings);
}

/** The popup itself, now (the admin's preview passes its `parent` and `focus: false`). */
export function openPromoPopup(given: PromoPopupSettings, options?: { parent?: Element; focus?: boolean }): { close: () => void } {
  const settings = translated(given, pageLocale());
  return openDialog('svc-gifts-promo', settings.title, (close) => {
    const parts: Node[] = [];
    if (settings.imageUrl) parts.push(h('img', { src: settings.imageUrl, alt: '', style: 'max-width:100%;border-radius:6px' }));
    if (settings.body) parts.push(h('p', {}, settings.body));
    const dismiss = h('button', { type: 'button', class: 'secondary' }, settings.closeLabel);
    dismiss.addEventListener('click', close);
    const actions = h('div', { class: 'actions' }, dismiss);
    if (settings.ctaUrl) actions.append(h('a', { href: settings.ctaUrl, style: 'padding:8px 14px;border-radius:6px;background:#111827;color:#fff;text-decoration:none;font-weight:600' }, settings.ctaLabel));
    parts.push(actions);
    return parts;
  }, undefined, options);
}
