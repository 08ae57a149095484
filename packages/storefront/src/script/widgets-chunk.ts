/**
 * gifts-widgets.js, the on-demand chunk of the theme script (widgets-api.ts): everything that
 * waits for a shopper or for a gift to be added, registered on `window.svcGiftsWidgets` for the
 * first load (load-chunk.ts) to use.
 */
import { injectCustomCode } from '../widgets/custom-code.ts';
import { showPromoPopup } from '../widgets/promo-popup.ts';
import { showToast, toastCart } from '../widgets/toast.ts';
import { createChoices } from './choices.ts';
import type { WidgetsChunk } from './widgets-api.ts';

const chunk: WidgetsChunk = {
  toast: (settings, giftTitle, gift) => showToast(settings, giftTitle, gift),
  cart: toastCart,
  promo: showPromoPopup,
  customCode: injectCustomCode,
  choices: createChoices,
};
window.svcGiftsWidgets ??= chunk;
