/**
 * The toast shown when a gift is added (`widgets.toast`). It speaks of one gift line, so it
 * goes as soon as a pass finds that line gone from the cart (the shopper removed it, or the
 * cart fell below the rule and the script removed it), before `durationMs` is up.
 */
import type { AjaxCartItem } from '../ajax-cart.ts';
import { fillTemplate } from '../progress.ts';
import type { ToastGift } from '../script/widgets-api.ts';
import { CONTROLS_CSS } from './dialog.ts';
import { h, removeHost, shadowHost } from './dom.ts';
import type { ToastSettings } from './settings.ts';
import { pageLocale, translated } from './translate.ts';

const HOST = 'svc-gifts-toast';
const POSITIONS: Record<ToastSettings['position'], string> = {
  'top-left': 'top:16px;left:16px',
  'top-center': 'top:16px;left:50%;transform:translateX(-50%)',
  'top-right': 'top:16px;right:16px',
  'bottom-left': 'bottom:16px;left:16px',
  'bottom-center': 'bottom:16px;left:50%;transform:translateX(-50%)',
  'bottom-right': 'bottom:16px;right:16px',
};
let timer: ReturnType<typeof setTimeout> | undefined;
/** The gift line the toast on screen speaks of. */
let shownGift: ToastGift | undefined;

/** Shows `settings.message` with `{{giftTitle}}` filled, for `durationMs`, in a polite live region. */
export function showToast(given: ToastSettings, giftTitle: string, gift?: ToastGift, parent: Element = document.body): void {
  const settings = translated(given, pageLocale());
  shownGift = gift;
  const position = POSITIONS[settings.position];
  const root = shadowHost(
    HOST,
    CONTROLS_CSS + `.toast{position:fixed;${position};z-index:2147483000;max-width:min(360px,calc(100vw - 32px));padding:12px 16px;border-radius:8px;` +
      `box-shadow:0 6px 20px rgba(0,0,0,.25);display:flex;gap:12px;align-items:center}` +
      `.toast button{background:transparent;border:0;color:inherit;padding:2px 6px;font-size:18px}`,
    parent,
  );
  const close = h('button', { type: 'button', 'aria-label': settings.dismissLabel }, '\u00d7');
  const toast = h(
    'div',
    { class: 'toast', role: 'status', 'aria-live': 'polite', style: `background:${settings.backgroundColor};color:${settings.textColor}` },
    h('span', {}, fillTemplate(settings.message, { giftTitle })),
    close,
  );
  close.addEventListener('click', () => removeHost(HOST));
  root.append(toast);
  clearTimeout(timer);
  timer = setTimeout(() => removeHost(HOST), settings.durationMs);
}

/**
 * Removes the toast when no line of `items` is its gift (same variant, same rule).
 *
 * @example toastCart(cart.items) // after each pass
 */
export function toastCart(items: readonly AjaxCartItem[]): void {
  const gift = shownGift;
  if (gift === undefined || items.some((item) => String(item.id) === gift.variantId && item.properties?._svc_rule_id === gift.ruleId)) return;
  shownGift = undefined;
  removeHost(HOST);
}
