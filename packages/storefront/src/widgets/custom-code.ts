/**
 * `widgets.customCode` (delivered only on the Scale plan; the server strips it below): the
 * merchant's own CSS, HTML and JS, injected once into the page itself (not a shadow root:
 * it is meant to style and script the theme).
 */
import type { CustomCode } from './settings.ts';

export function injectCustomCode(code: CustomCode | undefined): void {
  if (code === undefined) return;
  if (code.css) {
    const style = document.createElement('style');
    style.dataset.svcGiftsCustom = '';
    style.textContent = code.css;
    document.head.append(style);
  }
  if (code.html) {
    const container = document.createElement('div');
    container.dataset.svcGiftsCustom = '';
    container.innerHTML = code.html;
    document.body.append(container);
  }
  if (code.js) {
    const script = document.createElement('script');
    script.dataset.svcGiftsCustom = '';
    script.textContent = code.js;
    document.body.append(script);
  }
}
