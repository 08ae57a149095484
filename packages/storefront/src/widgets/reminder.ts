/**
 * The reminder (`widgets.reminder`): a shopper who qualifies for a customer-choice gift but
 * has not chosen it sees the message with a button that opens the choice. It goes into the
 * theme's `[data-svc-gifts-reminder]` element when there is one, else a bar at the bottom.
 */
import { CONTROLS_CSS } from './dialog.ts';
import { h, removeHost, shadowHost } from './dom.ts';
import type { ReminderSettings } from './settings.ts';

const HOST = 'svc-gifts-reminder';
let timer: ReturnType<typeof setTimeout> | undefined;

export function showReminder(settings: ReminderSettings, onOpen: () => void): void {
  clearTimeout(timer);
  timer = setTimeout(() => {
    const target = document.querySelector('[data-svc-gifts-reminder]');
    const fixed = target === null ? 'position:fixed;bottom:0;left:0;right:0;z-index:2147482000;' : '';
    const root = shadowHost(
      HOST,
      CONTROLS_CSS + `.reminder{${fixed}display:flex;gap:12px;align-items:center;justify-content:center;flex-wrap:wrap;padding:10px 16px;background:#fef3c7;color:#111827}`,
      target ?? document.body,
    );
    const open = h('button', { type: 'button' }, 'Choose gift');
    open.addEventListener('click', onOpen);
    root.append(h('div', { class: 'reminder', role: 'region', 'aria-label': 'Free gift reminder' }, h('span', {}, settings.message ?? 'You qualify for a free gift.'), open));
  }, (settings.delaySeconds ?? 0) * 1000);
}

export function hideReminder(): void {
  clearTimeout(timer);
  removeHost(HOST);
}
