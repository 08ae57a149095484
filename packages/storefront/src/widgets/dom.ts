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

/**
 * What every shadow root starts with: the theme's styles stop at the host, the font is the
 * system's. Buttons and dialogs add CONTROLS_CSS (dialog.ts): the progress bar, which the first
 * load of gifts.js draws, needs none of it.
 */
const BASE_CSS = ':host{all:initial}*{box-sizing:border-box;font:15px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}';

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
