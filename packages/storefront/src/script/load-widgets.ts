/**
 * The first load's way to the on-demand chunk (widgets-api.ts): a classic `<script>` appended
 * once, at the first widget that needs it (a gift added, a choice waiting, the promo popup's
 * trigger, custom code, the debug console). Its URL is the embed's `data-widgets-src` (Liquid's
 * `asset_url`), else the versioned name the build gave it, next to gifts.js itself.
 */
import type { WidgetsChunk } from './widgets-api.ts';

/** Memoised: one fetch per page; a failed load is tried again by the next widget. */
export function widgetsLoader(src: string): () => Promise<WidgetsChunk> {
  let loading: Promise<WidgetsChunk> | undefined;
  return () =>
    (loading ??= new Promise<WidgetsChunk>((resolve, reject) => {
      const tag = document.createElement('script');
      tag.src = src;
      tag.onload = () => (window.svcGiftsWidgets ? resolve(window.svcGiftsWidgets) : reject(new Error(`${src} registered no widgets`)));
      tag.onerror = () => {
        loading = undefined;
        tag.remove();
        reject(new Error(`${src} failed to load`));
      };
      document.head.append(tag);
    }));
}
