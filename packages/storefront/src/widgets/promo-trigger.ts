/**
 * When the promo popup (`widgets.promoPopup`) shows: after `delaySeconds` on page load, on exit
 * intent (the pointer leaves through the top of the window) or on the page's first add to cart.
 * Armed by the first load of gifts.js; `show` fetches the popup itself (promo-popup.ts) on demand.
 */
import type { PromoPopupSettings } from './settings.ts';

/**
 * Arms the trigger; returns the callback to call on the page's add to cart.
 *
 * @example onAddToCart = armPromoPopup(settings, () => void loadWidgets().then((chunk) => chunk.promo(settings)));
 */
export function armPromoPopup(settings: PromoPopupSettings, show: () => void): () => void {
  const trigger = settings.trigger;
  let armed = true;
  const fire = () => {
    if (!armed) return;
    armed = false;
    show();
  };
  if (trigger === 'page_load') {
    setTimeout(fire, settings.delaySeconds * 1000);
  } else if (trigger === 'exit_intent') {
    document.addEventListener('mouseout', (event) => {
      if (event.relatedTarget === null && event.clientY <= 0) fire();
    });
  }
  return trigger === 'add_to_cart' ? fire : () => {};
}
