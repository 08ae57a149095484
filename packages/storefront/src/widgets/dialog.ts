/**
 * Buttons and modal dialogs for the widgets that wait for a shopper (gift choice, promo popup,
 * reminder, toast). They live in the on-demand chunk of gifts.js (gifts-widgets.js), never in
 * its first load.
 */
import { h, removeHost, shadowHost } from './dom.ts';

/** Buttons, links and the dialog's backdrop, for shadow roots that hold controls. */
export const CONTROLS_CSS = `button{cursor:pointer;border-radius:6px;border:1px solid #111827;padding:8px 14px;background:#111827;color:#fff;font-weight:600}
button.secondary{background:#fff;color:#111827}button:focus-visible,a:focus-visible,input:focus-visible{outline:3px solid #2563eb;outline-offset:2px}
.backdrop{position:fixed;inset:0;background:rgba(0,0,0,.45);display:flex;align-items:center;justify-content:center;z-index:2147483000;padding:16px}
.dialog{background:#fff;color:#111827;border-radius:10px;max-width:420px;width:100%;padding:20px;box-shadow:0 10px 30px rgba(0,0,0,.3)}
.dialog h2{font-size:18px;margin:0 0 10px}.drawer{justify-content:flex-end;align-items:stretch;padding:0}.drawer .dialog{max-width:380px;border-radius:0;overflow:auto}
.inline{position:static;display:block;background:none;padding:0}.inline .dialog{max-width:none;box-shadow:none;border:1px solid #e5e7eb}.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}.actions{display:flex;gap:8px;justify-content:flex-end;margin-top:16px;flex-wrap:wrap}`;

let dialogCount = 0;

/**
 * How a dialog sits: `modal` in the middle of a backdrop, `drawer` along the right edge of it,
 * `inline` in the flow of its parent (the theme's block), without a backdrop and not modal.
 */
export type DialogMode = 'modal' | 'drawer' | 'inline';

/**
 * A modal dialog in its own shadow root: labelled by its title, focus moved into it and kept
 * there (Tab cycles), Escape or `close()` removes it and gives focus back. The admin's preview
 * passes its own `parent` and `focus: false` (it must not take the focus from the form). An
 * `inline` one does not take the focus either: it is part of the page.
 */
export function openDialog(
  id: string,
  title: string,
  build: (close: () => void) => Node[],
  onClose: () => void = () => {},
  { parent = document.body, focus = true, mode = 'modal' }: { parent?: Element; focus?: boolean; mode?: DialogMode } = {},
): { close: () => void } {
  const root = shadowHost(id, CONTROLS_CSS, parent);
  const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const titleId = `svc-dialog-title-${++dialogCount}`;
  let open = true;
  const close = () => {
    if (!open) return;
    open = false;
    removeHost(id);
    previous?.focus();
    onClose();
  };
  const dialog = h('div', { class: 'dialog', role: 'dialog', 'aria-modal': String(mode !== 'inline'), 'aria-labelledby': titleId }, h('h2', { id: titleId }, title), ...build(close));
  const backdrop = h('div', { class: `backdrop ${mode}` }, dialog);
  backdrop.addEventListener('click', (event) => {
    if (event.target === backdrop) close();
  });
  dialog.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
    } else if (event.key === 'Tab') {
      const focusable = [...dialog.querySelectorAll<HTMLElement>('button, a[href], input')];
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (first === undefined || last === undefined) return;
      if (event.shiftKey && root.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && root.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    }
  });
  root.append(backdrop);
  if (focus && mode !== 'inline') dialog.querySelector<HTMLElement>('input, button')?.focus();
  return { close };
}
