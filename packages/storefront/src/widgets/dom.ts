/**
 * Small DOM helpers for the widgets. Every widget lives in its own shadow root (CONTRACT:
 * the theme's CSS neither breaks it nor is broken by it), and merchant text is always set
 * as text, never parsed as HTML (only `customCode` injects markup, on purpose).
 */

type Attributes = Record<string, string | undefined>;

/**
 * An element with attributes and children (strings become text nodes).
 *
 * @example h('button', { type: 'button' }, 'Close')
 */
export function h(tag: string, attributes: Attributes = {}, ...children: Array<Node | string>): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) if (value !== undefined) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

const BASE_CSS = `:host{all:initial}*{box-sizing:border-box;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:15px;line-height:1.4}
button{cursor:pointer;border-radius:6px;border:1px solid #111827;padding:8px 14px;background:#111827;color:#fff;font-weight:600}
button.secondary{background:#fff;color:#111827}button:focus-visible,a:focus-visible,input:focus-visible{outline:3px solid #2563eb;outline-offset:2px}
.backdrop{position:fixed;inset:0;background:rgba(0,0,0,.45);display:flex;align-items:center;justify-content:center;z-index:2147483000;padding:16px}
.dialog{background:#fff;color:#111827;border-radius:10px;max-width:420px;width:100%;padding:20px;box-shadow:0 10px 30px rgba(0,0,0,.3)}
.dialog h2{font-size:18px;margin:0 0 10px}.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}.actions{display:flex;gap:8px;justify-content:flex-end;margin-top:16px;flex-wrap:wrap}`;

/**
 * A host element with an open shadow root holding the base styles and `css`, appended to
 * `parent` (the body by default). An existing host of that id is reused, emptied.
 */
export function shadowHost(id: string, css: string, parent: Element = document.body): ShadowRoot {
  const existing = document.getElementById(id);
  if (existing?.shadowRoot) {
    existing.shadowRoot.replaceChildren(h('style', {}, BASE_CSS + css));
    return existing.shadowRoot;
  }
  const host = h('div', { id, 'data-svc-gifts': '' });
  parent.append(host);
  const root = host.attachShadow({ mode: 'open' });
  root.append(h('style', {}, BASE_CSS + css));
  return root;
}

/** Removes a widget's host. */
export function removeHost(id: string): void {
  document.getElementById(id)?.remove();
}

let dialogCount = 0;

/**
 * A modal dialog in its own shadow root: labelled by its title, focus moved into it and kept
 * there (Tab cycles), Escape or `close()` removes it and gives focus back. The admin's preview
 * passes its own `parent` and `focus: false` (it must not take the focus from the form).
 */
export function openDialog(
  id: string,
  title: string,
  build: (close: () => void) => Node[],
  onClose: () => void = () => {},
  { parent = document.body, focus = true }: { parent?: Element; focus?: boolean } = {},
): { close: () => void } {
  const root = shadowHost(id, '', parent);
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
  const dialog = h('div', { class: 'dialog', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': titleId }, h('h2', { id: titleId }, title), ...build(close));
  const backdrop = h('div', { class: 'backdrop' }, dialog);
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
  if (focus) dialog.querySelector<HTMLElement>('input, button')?.focus();
  return { close };
}
