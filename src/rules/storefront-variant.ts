/**
 * The storefront's variant of the rules payload (CONTRACT "Storefront", `GET rules`): the
 * same payload as SPEC `GET /rules` (built once by payload.ts), with `debugAllowed` from the
 * shop setting `storefront.debug` and a `collections` map, so that a storefront can evaluate
 * `line.in_collection` without the platform telling it which collections a product is in, and
 * `giftTitles` and `giftPrices`, so that a gift choice can name its gifts, and show what they
 * usually cost, before they are in the cart.
 * `customCode` is already stripped below Scale by the payload builder. Pure.
 */
import { idKeyOf, numericIdOf } from '@gcrs/engine';
import type { ConditionNode } from '@gcrs/engine';
import type { RuleRecord } from '../campaigns/store.ts';
import { storefrontDebugOf } from '../shops/settings.ts';
import type { StoredShopSettings } from '../shops/settings.ts';
import type { Trigger } from '../http/shop-routes.ts';

/** A catalog collection as the payload needs it (CONTRACT "Product and collection"). */
export type PayloadCollection = { id: string; handle: string; productIds: string[] };

/**
 * The collection references (`line.in_collection` values: a handle, numeric id or gid) of
 * these rules' condition trees, deduplicated, as written. Iterative, so any depth is fine.
 *
 * @example
 *   collectionReferences([rule]); // ['summer', 'gid://shopify/Collection/5']
 */
export function collectionReferences(rules: readonly Pick<RuleRecord, 'conditionTree'>[]): string[] {
  const found = new Set<string>();
  const stack: ConditionNode[] = rules.map((rule) => rule.conditionTree);
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (node.type === 'AND' || node.type === 'OR') stack.push(...node.children);
    else if (node.type === 'NOT') stack.push(node.child);
    else if (node.type === 'line.in_collection') found.add(String(node.value).trim());
  }
  return [...found].filter((reference) => reference !== '');
}

/** Whether `reference` names `collection`: by numeric id (any form), else by handle, case-insensitively (as the engine matches). */
export function namesCollection(reference: string, collection: Pick<PayloadCollection, 'id' | 'handle'>): boolean {
  const id = idKeyOf(reference);
  if (id !== undefined) return idKeyOf(collection.id) === id;
  return reference.toLowerCase() === collection.handle.toLowerCase();
}

/**
 * The `collections` object: each collection the rules name, under its handle, its numeric id
 * and its gid, mapped to its product gids. Keys in a stable order (collections as given).
 *
 * @example
 *   collectionMap(['summer'], [{ id: 'gid://shopify/Collection/5', handle: 'summer', productIds: ['gid://shopify/Product/1'] }]);
 *   // { summer: [...], '5': [...], 'gid://shopify/Collection/5': [...] }
 */
export function collectionMap(references: readonly string[], collections: readonly PayloadCollection[]): Record<string, string[]> {
  const map: Record<string, string[]> = {};
  for (const collection of collections) {
    if (!references.some((reference) => namesCollection(reference, collection))) continue;
    const numeric = idKeyOf(collection.id);
    map[collection.handle] = collection.productIds;
    if (numeric !== undefined) map[String(numeric)] = collection.productIds;
    map[collection.id] = collection.productIds;
  }
  return map;
}

/**
 * The `giftTitles` (or `giftPrices`) object: each gift variant of the payload's rules that the
 * catalog knows (has a price for), keyed by the variant id as the rule writes it, mapped to the
 * name a shopper reads (its price in minor units of the shop's currency). Unknown variants are
 * left out: the script then names them itself (shows no price).
 *
 * @example
 *   giftFactMap([{ giftConfig: { gifts: [{ variantId: 'gid://shopify/ProductVariant/7' }] } }], new Map([['7', 'Enamel Mug']]));
 *   // { 'gid://shopify/ProductVariant/7': 'Enamel Mug' }
 */
export function giftFactMap<T>(rules: readonly { giftConfig: { gifts: ReadonlyArray<{ variantId: string }> } }[], facts: ReadonlyMap<string, T>): Record<string, T> {
  const map: Record<string, T> = {};
  for (const rule of rules) {
    for (const gift of rule.giftConfig.gifts) {
      const fact = facts.get(numericIdOf(gift.variantId) ?? gift.variantId);
      if (fact !== undefined) map[gift.variantId] = fact;
    }
  }
  return map;
}

/** The storefront variant's own fields. */
export type StorefrontExtras = {
  debugAllowed: boolean;
  collections: Record<string, string[]>;
  giftTitles: Record<string, string>;
  /** Gift variant id → its price in minor units of the payload's `baseCurrency`. */
  giftPrices: Record<string, number>;
};

/**
 * What the storefront variant adds to the payload: `debugAllowed` from the shop's setting, the
 * collection map of the collections the rules name, and the gifts' names and prices.
 *
 * @example
 *   const extras = storefrontExtras({ settings, rules, collections, giftTitles, giftPrices });
 *   // { debugAllowed: false, collections: {}, giftTitles: {}, giftPrices: {} }
 */
export function storefrontExtras(source: {
  settings: StoredShopSettings;
  rules: readonly (Pick<RuleRecord, 'conditionTree'> & { giftConfig: { gifts: ReadonlyArray<{ variantId: string }> } })[];
  collections: readonly PayloadCollection[];
  giftTitles: ReadonlyMap<string, string>;
  giftPrices: ReadonlyMap<string, number>;
}): StorefrontExtras {
  return {
    debugAllowed: storefrontDebugOf(source.settings),
    collections: collectionMap(collectionReferences(source.rules), source.collections),
    giftTitles: giftFactMap(source.rules, source.giftTitles),
    giftPrices: giftFactMap(source.rules, source.giftPrices),
  };
}

/**
 * What each way in adds to the cached payload. SPEC "Rules payload" `debugAllowed`: true for
 * the operator's admin mount, false for API keys; the storefront mount (app proxy and
 * storefront tokens) gets the shop's `storefront.debug` setting and the collection map. Every
 * variant is cached in the same entry (rules-cache.ts), so the shoppers' hot path writes bytes
 * like the API's.
 *
 * @example
 *   mountExtras('api', source); // { debugAllowed: false }
 */
export function mountExtras(
  mount: Trigger,
  source: Parameters<typeof storefrontExtras>[0],
): Pick<StorefrontExtras, 'debugAllowed'> & Partial<StorefrontExtras> {
  return mount === 'storefront' ? storefrontExtras(source) : { debugAllowed: mount === 'admin' };
}

type TranslatableRule = { options: { discountTitle: string; discountTitleTranslations?: Record<string, string> | undefined } };

/**
 * The locale of the rules' `options.discountTitleTranslations` a page in `locale` reads (issue 23, item 10):
 * the exact locale first (case-insensitively), else its language (`fr` for `fr-CA`), as the
 * widgets pick theirs; undefined when no rule has either, so the page reads the default.
 *
 * @example
 *   translationLocale([{ options: { discountTitle: 'Free gift', discountTitleTranslations: { fr: 'Cadeau offert' } } }], 'fr-CA'); // 'fr'
 */
export function translationLocale(rules: readonly TranslatableRule[], locale: string): string | undefined {
  const keys = new Set(rules.flatMap((rule) => Object.keys(rule.options.discountTitleTranslations ?? {})));
  const wanted = locale.toLowerCase();
  const language = wanted.split('-')[0];
  return [...keys].find((key) => key.toLowerCase() === wanted) ?? [...keys].find((key) => key.toLowerCase() === language);
}

/**
 * The rules as a page in `translation` (a key {@link translationLocale} chose) reads them: each
 * rule's `discountTitle` in that language where it has one, which the planner writes as the
 * gift line's `_svc_title`, the same title the checkout shows in that language
 * (docs/checkout-function.md). A rule without it keeps the default.
 *
 * @example
 *   localizedRules(rules, 'fr')[0].options.discountTitle; // 'Cadeau offert'
 */
export function localizedRules<R extends TranslatableRule>(rules: readonly R[], translation: string): R[] {
  return rules.map((rule) => {
    const translations = rule.options.discountTitleTranslations ?? {};
    const key = Object.keys(translations).find((locale) => locale.toLowerCase() === translation.toLowerCase());
    const title = key === undefined ? undefined : translations[key];
    return title === undefined ? rule : { ...rule, options: { ...rule.options, discountTitle: title } };
  });
}
