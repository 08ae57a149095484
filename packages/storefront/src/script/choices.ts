/**
 * The gift choice and the reminder (on-demand chunk): for the `choose` operations a pass
 * leaves waiting, the choice opens for the first one the shopper has not declined; a declined
 * one (remembered for the session) is offered again through the reminder. A choice whose rule
 * no longer waits (the cart dropped below it) is withdrawn. A gift's usual price (the payload's
 * `giftPrices`, in the shop's currency) goes with it when the cart is in that currency.
 */
import type { ChooseOperation } from '@gcrs/engine/planner';
import { openGiftChoice } from '../widgets/gift-choice.ts';
import type { GiftPrice } from '../widgets/gift-choice.ts';
import { hideReminder, showReminder } from '../widgets/reminder.ts';
import { enabledSection } from '../widgets/settings.ts';
import type { ChoiceHost } from './widgets-api.ts';

const DECLINED_KEY = 'svc_gifts_declined';

/**
 * @example const render = createChoices(host); render(pass.operations.filter((op) => op.type === 'choose'));
 */
export function createChoices(host: ChoiceHost): (pending: ChooseOperation[], currency?: string) => void {
  const { widgets, giftTitles = {}, giftPrices = {}, baseCurrency = '' } = host.payload;
  const declined = readDeclined();
  let pending: ChooseOperation[] = [];
  let cartCurrency: string | undefined;
  let open: { ruleId: string; close: () => void } | undefined;

  function render(next: ChooseOperation[], currency = cartCurrency): void {
    pending = next;
    cartCurrency = currency;
    const shown = open;
    if (shown !== undefined && !pending.some((operation) => operation.ruleId === shown.ruleId)) {
      open = undefined;
      shown.close();
    }
    const choice = enabledSection(widgets, 'giftChoice');
    const first = pending.find((operation) => !declined.has(operation.ruleId));
    if (choice !== undefined && first !== undefined && open === undefined) offer(first);
    const reminder = enabledSection(widgets, 'reminder');
    const unchosen = pending[0];
    if (reminder !== undefined && unchosen !== undefined && open === undefined && (choice === undefined || declined.has(unchosen.ruleId))) {
      showReminder(reminder, () => {
        hideReminder();
        offer(unchosen);
      });
    } else {
      hideReminder();
    }
  }

  function offer(operation: ChooseOperation): void {
    const settings = enabledSection(widgets, 'giftChoice');
    if (settings === undefined || operation.options.length === 0 || open !== undefined) return;
    host.shown(operation);
    const title = operation.attributes._svc_title ?? 'Gift';
    const dialog = openGiftChoice(
      settings,
      operation,
      // The catalog's name when the service knows the gift, else the rule's title, numbered.
      (variantId, index) => giftTitles[variantId] ?? (operation.options.length > 1 ? `${title} ${index + 1}` : title),
      (variantId) => {
        open = undefined;
        void host.choose(operation.ruleId, variantId);
      },
      () => {
        if (open === undefined) return; // withdrawn by the script, not declined by the shopper
        open = undefined;
        declined.add(operation.ruleId);
        writeDeclined(declined);
        render(pending);
      },
      { price: priceOf },
    );
    open = { ruleId: operation.ruleId, close: dialog.close };
  }

  /** The gift's usual price when the catalog has one and the cart is in the shop's currency. */
  function priceOf(variantId: string): GiftPrice | undefined {
    const amount = giftPrices[variantId];
    const currency = baseCurrency.toUpperCase();
    return amount !== undefined && currency !== '' && cartCurrency?.toUpperCase() === currency ? { amount, currency } : undefined;
  }

  return render;
}

function readDeclined(): Set<string> {
  try {
    return new Set<string>(JSON.parse(sessionStorage.getItem(DECLINED_KEY) ?? '[]') as string[]);
  } catch {
    return new Set<string>();
  }
}

function writeDeclined(declined: Set<string>): void {
  try {
    sessionStorage.setItem(DECLINED_KEY, JSON.stringify([...declined]));
  } catch {
    // Storage blocked: the choice is offered again on the next page.
  }
}
