/**
 * The gift choice (`widgets.giftChoice`) for a matched customer-choice rule: one radio per
 * offered gift in a labelled fieldset, a confirm button, and a decline button when
 * `allowDecline`. Only the chosen gift is added. `layout`: a dialog in the middle (`modal`), a
 * panel along the right edge (`drawer`), or in the theme's `[data-svc-gifts-reminder]` block
 * (`inline`, in the cart drawer; a dialog on a page without the block). With `showPrices`, each
 * gift's usual price struck through and the free label follow its name (no price known: the
 * label alone).
 */
import type { ChooseOperation } from '@gcrs/engine/planner';
import { formatMoney } from '../progress.ts';
import { openDialog } from './dialog.ts';
import { h } from './dom.ts';
import type { GiftChoiceSettings } from './settings.ts';
import { pageLocale, translated } from './translate.ts';

export type GiftLabel = (variantId: string, index: number) => string;

/** A gift's usual price, in minor units of `currency`. */
export type GiftPrice = { amount: number; currency: string };

/** What follows a gift's name with `showPrices`: its usual price struck through (when known), then the free label. */
function costOf(freeLabel: string, price: GiftPrice | undefined, quantity: number, locale: string): Node[] {
  const free = h('strong', { class: 'free' }, freeLabel);
  if (price === undefined) return [document.createTextNode(' '), free];
  const usual = h('s', { class: 'price' }, formatMoney(price.amount * quantity, price.currency, locale || undefined));
  return [document.createTextNode(' '), usual, document.createTextNode(' '), free];
}

/**
 * Opens the choice; `onChoose(variantId)` on confirm, `onDecline()` on decline or close.
 * Labels come from `label` (the theme may name gifts; default "Gift n").
 */
export function openGiftChoice(
  given: GiftChoiceSettings,
  operation: ChooseOperation,
  label: GiftLabel,
  onChoose: (variantId: string) => void,
  onDecline: () => void,
  options?: { parent?: Element; focus?: boolean; price?: (variantId: string) => GiftPrice | undefined },
): { close: () => void } {
  const locale = pageLocale();
  const settings = translated(given, locale);
  const priceOf = options?.price;
  let chosen = false;
  const parent = options?.parent ?? document.body;
  const block = settings.layout === 'inline' ? parent.querySelector('[data-svc-gifts-reminder]') : null;
  const mode = block !== null ? 'inline' : settings.layout === 'drawer' ? 'drawer' : 'modal';
  return openDialog(
    'svc-gifts-choice',
    settings.title,
    (close) => {
      const name = `svc-choice-${operation.ruleId}`;
      const options = operation.options.map((option, index) => {
        const input = h('input', { type: 'radio', name, value: option.variantId, id: `${name}-${index}` }) as HTMLInputElement;
        if (index === 0) input.checked = true;
        const text = option.quantity > 1 ? `${label(option.variantId, index)} \u00d7 ${option.quantity}` : label(option.variantId, index);
        const cost = settings.showPrices ? costOf(settings.freeLabel, priceOf?.(option.variantId), option.quantity, locale) : [];
        return h('div', { style: 'padding:6px 0' }, input, ' ', h('label', { for: `${name}-${index}` }, text, ...cost));
      });
      const fieldset = h('fieldset', { style: 'border:0;padding:0;margin:0' }, h('legend', { class: 'sr' }, settings.title), ...options);
      const confirm = h('button', { type: 'button' }, settings.confirmLabel);
      confirm.addEventListener('click', () => {
        const picked = fieldset.querySelector<HTMLInputElement>('input:checked')?.value;
        if (picked === undefined) return;
        chosen = true;
        close();
        onChoose(picked);
      });
      const actions = h('div', { class: 'actions' });
      if (settings.allowDecline) {
        const decline = h('button', { type: 'button', class: 'secondary' }, settings.declineLabel);
        decline.addEventListener('click', close);
        actions.append(decline);
      }
      actions.append(confirm);
      return [fieldset, actions];
    },
    () => {
      if (!chosen) onDecline();
    },
    { ...options, parent: block ?? parent, mode },
  );
}
