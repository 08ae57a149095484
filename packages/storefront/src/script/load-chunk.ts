/**
 * The first load's way to its on-demand chunks (widgets-api.ts): a classic `<script>` appended
 * once, at the first moment one is needed (the widgets: a gift added, a choice waiting, the promo
 * popup's trigger, custom code; the progress bar: once a shop's bar can be seen, progress-gate.ts;
 * the debug console: `?svc_debug=1` allowed). Its URL is the embed's `data-<name>-src` (Liquid's
 * `asset_url`), else the versioned name the build gave it, next to gifts.js itself.
 */

type Chunks = Pick<Window, 'svcGiftsWidgets' | 'svcGiftsProgress' | 'svcGiftsDebug'>;

/** Memoised: one fetch per page; a failed load is tried again by the next call. */
export function chunkLoader<K extends keyof Chunks>(src: string, global: K): () => Promise<NonNullable<Chunks[K]>> {
  let loading: Promise<NonNullable<Chunks[K]>> | undefined;
  return () =>
    (loading ??= new Promise((resolve, reject) => {
      // One message for both failures: the script did not load, or it registered nothing.
      const failed = () => reject(new Error(`${src} did not register ${global}`));
      const tag = document.createElement('script');
      tag.src = src;
      tag.onload = () => {
        const chunk = window[global];
        if (chunk) resolve(chunk as NonNullable<Chunks[K]>);
        else failed();
      };
      tag.onerror = () => {
        loading = undefined;
        tag.remove();
        failed();
      };
      document.head.append(tag);
    }));
}
