/**
 * gifts.js: the theme script (CONTRACT "Storefront"), the first load: one IIFE with the engine
 * inside. Reads its `data-*`, wraps the page's cart calls, loads the rules once through the
 * proxy and runs a pass now and after each of the page's cart changes (debounced by
 * `shopSettings.engine.evaluationDelay`). Exposes `window.svcGifts`. What waits for a shopper
 * (the toast, the gift choice, the reminder, the promo popup, custom code) is the on-demand chunk
 * gifts-widgets.js (widgets-chunk.ts); the progress bar (gifts-progress.js) and the debug console
 * (gifts-debug.js) are chunks of their own: each is fetched when first needed (load-chunk.ts),
 * the bar's once it can be seen (progress-gate.ts).
 */
import { createDebouncer } from '../debounce.ts';
import { readScriptConfig } from '../script-config.ts';
import { visitorIdentity } from '../visitor-id.ts';
import { armPromoPopup } from '../widgets/promo-trigger.ts';
import { enabledSection } from '../widgets/settings.ts';
import { createCartClient } from './cart-client.ts';
import { chunkLoader } from './load-chunk.ts';
import { whenProgressVisible } from './progress-gate.ts';
import type { LastResult, Runtime, StorefrontPayload } from './runtime.ts';
import { createRuntime } from './runtime.ts';
import { watchCartChanges } from './watch-cart.ts';

type SvcGifts = {
  refresh(): Promise<void>;
  choose(ruleId: string, variantId: string): Promise<boolean>;
  lastResult: LastResult | undefined;
  ready: Promise<void>;
};

declare global {
  interface Window {
    svcGifts?: SvcGifts;
  }
}

/** The chunks' versioned file names, set by the build (build-script.ts) next to gifts.js. */
declare const __SVC_CHUNK_FILES__: { widgets: string; progress: string; debug: string };

function start(): void {
  if (window.svcGifts !== undefined) return; // included twice: the first copy runs
  const script = document.currentScript as HTMLScriptElement | null;
  const config = readScriptConfig(script?.dataset ?? {}, location.search);
  const { visitorId, cookie } = visitorIdentity(document.cookie, (n) => crypto.getRandomValues(new Uint8Array(n)), location.protocol === 'https:');
  document.cookie = cookie;

  let runtime: Runtime | undefined;
  let onAddToCart = () => {};
  const debouncer = createDebouncer(() => void runtime?.pass().catch(report), () => runtime?.evaluationDelay ?? 0);
  const originalFetch = watchCartChanges(window, (kind) => {
    if (kind === 'add') onAddToCart();
    debouncer.schedule();
  });
  const client = createCartClient(originalFetch, config.proxy, visitorId);
  // The embed names each chunk's asset URL (Liquid's asset_url); else it sits beside gifts.js.
  const chunk = <K extends Parameters<typeof chunkLoader>[1]>(name: keyof typeof __SVC_CHUNK_FILES__, global: K) =>
    chunkLoader(config[`${name}Src`] ?? new URL(__SVC_CHUNK_FILES__[name], script?.src || location.href).href, global);
  const loadWidgets = chunk('widgets', 'svcGiftsWidgets');
  const loadProgress = chunk('progress', 'svcGiftsProgress');
  /** Opens once the bar can be seen (progress-gate.ts); never for `cart_page` off /cart: its draws then never run. */
  let progressSeen: Promise<void> | undefined;

  const ready = (async () => {
    const payload = (await client.getRules(config.locale)) as StorefrontPayload;
    if (!Array.isArray(payload.rules)) throw new Error('rules payload without rules');
    runtime = createRuntime({
      config,
      client,
      payload,
      visitorId,
      loadWidgets,
      loadProgress: (placement) => (progressSeen ??= new Promise<void>((open) => whenProgressVisible(placement, open))).then(loadProgress),
      loadDebug: chunk('debug', 'svcGiftsDebug'),
      report,
    });
    // Scale shops get `customCode` with empty fields by default: only written code is fetched for.
    const customCode = payload.widgets?.customCode;
    if (customCode?.html || customCode?.css || customCode?.js) loadWidgets().then((chunk) => chunk.customCode(customCode), report);
    const promo = enabledSection(payload.widgets, 'promoPopup');
    if (promo !== undefined) onAddToCart = armPromoPopup(promo, () => void loadWidgets().then((chunk) => chunk.promo(promo), report));
    await runtime.pass();
  })().catch(report);

  window.svcGifts = {
    refresh: async () => {
      debouncer.cancel();
      await ready;
      await runtime?.pass().catch(report);
    },
    choose: async (ruleId, variantId) => runtime?.choose(ruleId, variantId) ?? false,
    get lastResult() {
      return runtime?.lastResult;
    },
    ready,
  };
}

function report(error: unknown): void {
  console.warn('[svc-gifts]', error);
}

start();
