/**
 * gifts-widgets.js, the on-demand chunk of the theme script (widgets-api.ts): everything that
 * waits for a shopper or for a gift to be added, registered on `window.svcGiftsWidgets` for the
 * first load (load-widgets.ts) to use.
 */
import type { CartOperation, EvaluationContext, RuleResult } from '@gcrs/engine/planner';
import { injectCustomCode } from '../widgets/custom-code.ts';
import { showPromoPopup } from '../widgets/promo-popup.ts';
import { showToast } from '../widgets/toast.ts';
import { createChoices } from './choices.ts';
import type { WidgetsChunk } from './widgets-api.ts';

function logTrace(ctx: EvaluationContext, results: RuleResult[], operations: CartOperation[]): void {
  console.groupCollapsed(`[svc-gifts] evaluation: ${results.filter((result) => result.matched).length}/${results.length} rules matched, ${operations.length} operations`);
  console.log('context', ctx);
  for (const result of results) console.log(result.matched ? 'matched' : 'not matched', result.ruleId, result.reasons, result.trace);
  console.log('operations', operations);
  console.groupEnd();
}

const chunk: WidgetsChunk = {
  toast: (settings, giftTitle) => showToast(settings, giftTitle),
  promo: showPromoPopup,
  customCode: injectCustomCode,
  choices: createChoices,
  trace: logTrace,
};
window.svcGiftsWidgets ??= chunk;
