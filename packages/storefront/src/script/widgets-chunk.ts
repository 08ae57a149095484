/**
 * gifts-widgets.js, the on-demand chunk of the theme script (widgets-api.ts): everything that
 * waits for a shopper or for a gift to be added, registered on `window.svcGiftsWidgets` for the
 * first load (load-chunk.ts) to use. The toast names its gift here (the product title the
 * cart's answer gives, else the line's `_svc_title`), not in the first load.
 */
import type { AddRequest } from '../cart-actions.ts';
import { injectCustomCode } from '../widgets/custom-code.ts';
import { showPromoPopup } from '../widgets/promo-popup.ts';
import { showToast, toastCart } from '../widgets/toast.ts';
import { createChoices } from './choices.ts';
import type { WidgetsChunk } from './widgets-api.ts';

const chunk: WidgetsChunk = {
  toast: (settings, added) => {
    const last = added.filter((one): one is { request: AddRequest; body: unknown } => one.request.kind === 'add').at(-1);
    if (last === undefined) return;
    const line = last.request.body.items[0];
    const item = (last.body as { items?: Array<{ product_title?: string; title?: string }> } | null)?.items?.[0];
    showToast(settings, item?.product_title ?? item?.title ?? line?.properties._svc_title ?? 'A free gift', { ruleId: last.request.gift.ruleId, variantId: String(line?.id) });
  },
  cart: toastCart,
  promo: showPromoPopup,
  customCode: injectCustomCode,
  choices: createChoices,
};
window.svcGiftsWidgets ??= chunk;
