/**
 * The payload each way in is served from one cache entry (rules-cache.ts): the mount's extras
 * (storefront-variant.ts) and, for a storefront page in a language the rules are translated
 * to, each rule's title in that language (issue 23, item 10: the gift line's `_svc_title`).
 */
import type { Trigger } from '../http/shop-routes.ts';
import type { RulesPayloadBody, RulesSource } from './payload.ts';
import { localizedRules, mountExtras, translationLocale } from './storefront-variant.ts';
import type { StorefrontExtras } from './storefront-variant.ts';

/** The payload as one mount is served it (SPEC "Rules payload"). */
export type RulesPayload = RulesPayloadBody & Pick<StorefrontExtras, 'debugAllowed'> & Partial<StorefrontExtras>;

/** Locales remembered per entry: a client naming endless locales costs a scan each, not memory. */
const MAX_REMEMBERED_LOCALES = 64;

/**
 * The translation a storefront page in `locale` reads ({@link translationLocale}), remembered in
 * `known` so the shoppers' hot path does not scan the rules on every request; undefined for the
 * other mounts and for a page without a locale.
 *
 * @example
 *   pageTranslation(new Map(), rules, 'storefront', 'fr-CA'); // 'fr' when a rule has `fr`
 */
export function pageTranslation(
  known: Map<string, string | undefined>,
  rules: RulesPayloadBody['rules'],
  mount: Trigger,
  locale: string | undefined,
): string | undefined {
  if (mount !== 'storefront' || locale === undefined || locale === '') return undefined;
  if (known.has(locale)) return known.get(locale);
  const translation = translationLocale(rules, locale);
  if (known.size < MAX_REMEMBERED_LOCALES) known.set(locale, translation);
  return translation;
}

/**
 * `body` as `mount` is served it: its rules (in `translation` where given, see
 * {@link pageTranslation}) and the mount's extras, in SPEC's field order.
 *
 * @example
 *   mountPayload(body, source, 'api', undefined).debugAllowed; // false
 */
export function mountPayload(body: RulesPayloadBody, source: RulesSource, mount: Trigger, translation: string | undefined): RulesPayload {
  const { rules: defaultRules, experiments, ...rest } = body;
  const rules = translation === undefined ? defaultRules : localizedRules(defaultRules, translation);
  const { debugAllowed, collections, giftTitles, giftPrices } = mountExtras(mount, {
    settings: source.shop.settings,
    rules: defaultRules,
    collections: source.collections,
    giftTitles: source.giftTitles,
    giftPrices: source.giftPrices,
  });
  return {
    rules,
    ...(experiments ? { experiments } : {}),
    debugAllowed,
    ...rest,
    ...(collections ? { collections } : {}),
    ...(giftTitles ? { giftTitles } : {}),
    ...(giftPrices ? { giftPrices } : {}),
  };
}
