/**
 * The promo popup (`widgets.promoPopup`): after `delaySeconds` on page load, on exit intent
 * (the pointer leaves through the top of the window) or on the page's first add to cart;
 * once per session when `showOncePerSession`.
 */
import { h, openDialog } from './dom.ts';
import type { PromoPopupSettings } from './settings.ts';

const SEEN_KEY = 'svc_gifts_promo_seen';

function seen(): boolean {
  try {
    return sessionStorage.getItem(SEEN_KEY) === '1';
  } catch {
    return false;
  }
}

function show(settings: PromoPopupSettings): void {
  if (settings.showOncePerSession !== false) {
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
export function openPromoPopup(settings: PromoPopupSettings, options?: { parent?: Element; focus?: boolean }): { close: () => void } {
  return openDialog('svc-gifts-promo', settings.title ?? '', (close) => {
    const parts: Node[] = [];
    if (settings.imageUrl) parts.push(h('img', { src: settings.imageUrl, alt: '', style: 'max-width:100%;border-radius:6px' }));
    if (settings.body) parts.push(h('p', {}, settings.body));
    const dismiss = h('button', { type: 'button', class: 'secondary' }, 'Close');
    dismiss.addEventListener('click', close);
    const actions = h('div', { class: 'actions' }, dismiss);
    if (settings.ctaUrl) actions.append(h('a', { href: settings.ctaUrl, style: 'padding:8px 14px;border-radius:6px;background:#111827;color:#fff;text-decoration:none;font-weight:600' }, settings.ctaLabel ?? 'Shop now'));
    parts.push(actions);
    return parts;
  }, undefined, options);
}

/** Arms the popup's trigger; returns the callback to call on the page's add to cart. */
export function armPromoPopup(settings: PromoPopupSettings): () => void {
  const trigger = settings.trigger ?? 'page_load';
  let armed = true;
  const fire = () => {
    if (!armed) return;
    armed = false;
    show(settings);
  };
  if (trigger === 'page_load') {
    setTimeout(fire, (settings.delaySeconds ?? 0) * 1000);
  } else if (trigger === 'exit_intent') {
    document.addEventListener('mouseout', (event) => {
      if (event.relatedTarget === null && event.clientY <= 0) fire();
    });
  }
  return trigger === 'add_to_cart' ? fire : () => {};
}
