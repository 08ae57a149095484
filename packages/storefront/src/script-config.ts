/**
 * The script's settings, read from the `data-*` attributes of its own `<script>` tag
 * (CONTRACT "Storefront") and the page URL.
 */
import type { Shopper } from './ajax-cart.ts';

export type ScriptConfig = Shopper & {
  /** Where the service is reached: the app proxy path (default `/apps/gifts`) or a URL. */
  proxy: string;
  /** The shop's locale (`data-locale`, e.g. `fr`), for amounts; else the page's `lang`. */
  locale: string | undefined;
  /** The on-demand chunks' URLs (`data-widgets-src`, `data-progress-src`, `data-debug-src`, filled by the embed's Liquid); else beside the script. */
  widgetsSrc: string | undefined;
  progressSrc: string | undefined;
  debugSrc: string | undefined;
  /** `?svc_debug=1` in the page URL (logged only when the payload allows it). */
  debugRequested: boolean;
};

export const DEFAULT_PROXY = '/apps/gifts';

const blankToUndefined = (value: string | undefined) => {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
};

/**
 * Reads the tag's dataset (`data-proxy`, `data-currency`, `data-market`, `data-country`,
 * `data-customer-id`, `data-customer-tags`, `data-logged-in`, `data-locale`, `data-widgets-src`,
 * `data-progress-src`, `data-debug-src`) and the page's query.
 *
 * @example readScriptConfig({ proxy: '/apps/gifts', loggedIn: 'true', customerTags: 'vip, new' }, '?svc_debug=1')
 */
export function readScriptConfig(dataset: Readonly<Record<string, string | undefined>>, search: string): ScriptConfig {
  const proxy = (blankToUndefined(dataset.proxy) ?? DEFAULT_PROXY).replace(/\/+$/, '');
  const tags = (dataset.customerTags ?? '')
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
  return {
    proxy,
    currency: blankToUndefined(dataset.currency)?.toUpperCase(),
    market: blankToUndefined(dataset.market),
    country: blankToUndefined(dataset.country)?.toUpperCase(),
    customerId: blankToUndefined(dataset.customerId),
    customerTags: tags,
    loggedIn: dataset.loggedIn?.trim().toLowerCase() === 'true',
    locale: blankToUndefined(dataset.locale),
    widgetsSrc: blankToUndefined(dataset.widgetsSrc),
    progressSrc: blankToUndefined(dataset.progressSrc),
    debugSrc: blankToUndefined(dataset.debugSrc),
    debugRequested: new URLSearchParams(search).get('svc_debug') === '1',
  };
}
