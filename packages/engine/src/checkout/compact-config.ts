/**
 * The checkout function's configuration: a shop's live rules in the compact form the
 * automatic discount's metafields hold (CONTRACT "Checkout": at most 10,000 bytes of JSON a
 * metafield; config-metafields.ts spreads it over two). Only what the function needs to re-check a gift line: the rule (by a short
 * hash of its id), its campaign, its compiled-to-compact condition tree, its gifts with their
 * quantities, its discount and title, its experiment; the base currency and the checkout
 * settings a discount can express. Pure and zod-free (the function bundle imports the types).
 */
import { readGiftConfig, readRuleOptions, readShopSettings } from '../compile/read-rule-parts.ts';
import { numericIdOf } from '../ids.ts';
import { CHECKOUT_CONFIG_LIMIT_BYTES, keyOf, utf8Length } from './config-bytes.ts';
import { splitCheckoutConfig } from './config-metafields.ts';
import type { ConfigMetafield } from './config-metafields.ts';
import { compactId, encodeTree } from './compact-tree.ts';
import { encodeRule, orderedKey } from './rule-text.ts';
import type { CheckoutFunctionConfig, CheckoutFunctionVariables, CompactGift, CompactPer, CompactRule, CompactStack } from './config-format.ts';

// The byte and key helpers live in config-bytes.ts and the format's types in config-format.ts
// (the metafield split needs them too, and must not import this module back).
export { CHECKOUT_CONFIG_LIMIT_BYTES, keyOf, utf8Length } from './config-bytes.ts';
export type {
  CheckoutFunctionConfig,
  CheckoutFunctionConfigV1,
  CheckoutFunctionVariables,
  CompactGift,
  CompactPer,
  CompactRule,
  CompactStack,
  ReadableCheckoutConfig,
} from './config-format.ts';

export type ExcludedRule = { ruleId: string; reason: 'invalid_rule' | 'discount_code_condition' | 'market_condition' | 'no_discount' };

export type CheckoutConfigBuild = {
  config: CheckoutFunctionConfig;
  variables: CheckoutFunctionVariables;
  /** UTF-8 bytes of `JSON.stringify(config)` plus those of the variables: the configuration's size. */
  bytes: number;
  /** The discount metafields that hold `config` (config-metafields.ts), as written. */
  metafields: ConfigMetafield[];
  /** UTF-8 bytes of the variables' metafield (`vars`). */
  variablesBytes: number;
  /** Every metafield (each of `metafields`, and `vars`) within the platform's 10,000 bytes. */
  fits: boolean;
  /** Live rules the function cannot re-check, hence never discounts (fail closed). */
  excluded: ExcludedRule[];
};

type PayloadLike = {
  baseCurrency: string;
  rules: ReadonlyArray<{
    id: string;
    campaignId?: string;
    enabled?: boolean;
    conditionTree: unknown;
    giftConfig: unknown;
    options?: unknown;
  }>;
  experiments?: ReadonlyArray<{ id: string; variants: ReadonlyArray<{ ruleId: string }> }>;
  shopSettings?: unknown;
};

/** A collection of the catalog: references by handle are resolved to its id. */
export type ConfigCollection = { id: string; handle: string };

const DISCOUNT_LEAVES = new Set(['discount.code_present', 'discount.code_not_present', 'discount.code_equals']);

/**
 * Whether a leaf needs the buyer's market: `market.handle_in`, or a threshold with
 * `marketOverrides`. The Discount Function API deprecates `localization.market` (a buyer may
 * match several markets since market inheritance) and offers no replacement field at the pinned
 * version, so the function is not told the market (docs/checkout-function.md "The market").
 */
function needsMarket(leaf: Record<string, unknown>): boolean {
  if (leaf.type === 'market.handle_in') return true;
  const overrides = leaf.marketOverrides;
  return typeof overrides === 'object' && overrides !== null && Object.keys(overrides).length > 0;
}

/** Walks a tree (iteratively) and calls `visit` on every leaf. */
function eachLeaf(tree: unknown, visit: (leaf: Record<string, unknown>) => void): void {
  const stack: unknown[] = [tree];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (typeof node !== 'object' || node === null) continue;
    const record = node as Record<string, unknown>;
    if (record.type === 'AND' || record.type === 'OR') {
      if (Array.isArray(record.children)) stack.push(...(record.children as unknown[]));
    } else if (record.type === 'NOT') stack.push(record.child);
    else visit(record);
  }
}

/** Translations keyed by lower-case locale (the function lower-cases the buyer's), 0 for none. */
function lowerCaseLocales(translations: Readonly<Record<string, string>> | undefined): Record<string, string> | 0 {
  if (translations === undefined || Object.keys(translations).length === 0) return 0;
  return Object.fromEntries(Object.entries(translations).map(([locale, title]) => [locale.toLowerCase(), title]));
}

const trimmed = <T>(list: Array<T | 0>): Array<T | 0> => {
  let end = list.length;
  while (end > 0 && list[end - 1] === 0) end -= 1;
  return list.slice(0, end);
};

/**
 * Each id's key: its `keyOf`, or the id itself when another id shares that key, or when the key
 * is all digits (format 2 keys rules by object keys, and an array index would move first).
 */
function uniqueKeys(ids: readonly string[]): Map<string, string> {
  const counts = new Map<string, number>();
  for (const id of new Set(ids)) counts.set(keyOf(id), (counts.get(keyOf(id)) ?? 0) + 1);
  return new Map(ids.map((id) => [id, counts.get(keyOf(id)) === 1 && orderedKey(keyOf(id)) ? keyOf(id) : id]));
}

/**
 * The compact configuration of a rules payload (the one `GET /rules` serves, so plan gating
 * and schedules are already applied) and its size. Rules that cannot be re-checked at
 * checkout are left out and listed in `excluded`: a condition on discount codes (the
 * function's run target is not told the codes entered) or on the market (`needsMarket`), an
 * invalid gift or options, a discount of 0, an id that is all digits (a rule's key in format
 * 2 must not be an array index, rule-text.ts `orderedKey`; the service's ids never are).
 *
 * @example
 *   const { config, bytes, fits } = buildCheckoutConfig(payload, catalogCollections);
 */
export function buildCheckoutConfig(payload: PayloadLike, collections: readonly ConfigCollection[] = []): CheckoutConfigBuild {
  const excluded: ExcludedRule[] = [];
  const live = payload.rules.filter((rule) => rule.enabled !== false);
  const ruleKeys = uniqueKeys(live.map((rule) => rule.id));
  const campaignKeys = uniqueKeys(live.map((rule) => rule.campaignId ?? ''));
  const experimentOf = new Map<string, number>();
  (payload.experiments ?? []).forEach((experiment, index) => {
    for (const variant of experiment.variants) experimentOf.set(variant.ruleId, index);
  });
  const collectionByHandle = new Map(collections.map((c) => [c.handle.toLowerCase(), c]));
  const collectionById = new Map(collections.map((c) => [numericIdOf(c.id) ?? c.id, c]));
  const tags = new Set<string>();
  const collectionIds = new Set<string>();
  const campaigns: string[] = [];
  const titles: string[] = [];
  const titleTranslations: Array<Record<string, string> | 0> = [];
  // A title is its text with its translations: two rules with the same title and different
  // translations take two entries of `m` (the same text twice), as the function tells them apart.
  const titleKeys: string[] = [];
  const rules: CompactRule[] = [];
  const experimentIndex = new Map<number, number>();
  let exclusive = false;

  for (const rule of live) {
    const gifts = readGiftConfig(rule.giftConfig);
    const options = readRuleOptions(rule.options);
    if (gifts === undefined || options === undefined) {
      excluded.push({ ruleId: rule.id, reason: 'invalid_rule' });
      continue;
    }
    const ruleKey = ruleKeys.get(rule.id) ?? rule.id;
    if (!orderedKey(ruleKey)) {
      excluded.push({ ruleId: rule.id, reason: 'invalid_rule' });
      continue;
    }
    if (!(options.discountValue > 0)) {
      excluded.push({ ruleId: rule.id, reason: 'no_discount' });
      continue;
    }
    let codes = false;
    let market = false;
    eachLeaf(rule.conditionTree, (leaf) => {
      if (DISCOUNT_LEAVES.has(String(leaf.type))) codes = true;
      if (needsMarket(leaf)) market = true;
    });
    if (codes || market) {
      excluded.push({ ruleId: rule.id, reason: codes ? 'discount_code_condition' : 'market_condition' });
      continue;
    }
    const tree = encodeTree(rule.conditionTree, (leaf) => {
      if (leaf.type === 'customer.tag_in' && Array.isArray(leaf.value)) {
        for (const tag of leaf.value as unknown[]) if (typeof tag === 'string') tags.add(tag.trim());
      }
      if (leaf.type !== 'line.in_collection') return leaf;
      // The function learns membership from the platform by collection id only.
      const reference = String(leaf.value).trim();
      const numeric = numericIdOf(reference) ?? (/^\d+$/.test(reference) ? reference : undefined);
      const collection = numeric !== undefined ? collectionById.get(numeric) : collectionByHandle.get(reference.toLowerCase());
      const id = collection !== undefined ? (numericIdOf(collection.id) ?? collection.id) : numeric;
      if (id === undefined) return leaf;
      collectionIds.add(`gid://shopify/Collection/${id}`);
      return { ...leaf, value: compactId(id) };
    });
    const campaignKey = campaignKeys.get(rule.campaignId ?? '') ?? '';
    if (!campaigns.includes(campaignKey)) campaigns.push(campaignKey);
    const translations = lowerCaseLocales(options.discountTitleTranslations);
    const titleKey = JSON.stringify([options.discountTitle, translations]);
    if (!titleKeys.includes(titleKey)) {
      titleKeys.push(titleKey);
      titles.push(options.discountTitle);
      titleTranslations.push(translations);
    }
    const discount: number | [number] = options.discountType === 'percentage' ? Math.min(options.discountValue, 100) : [Math.round(options.discountValue)];
    const compactGifts = gifts.gifts.map((gift): CompactGift => {
      const id = compactId(gift.variantId) as number | string;
      return gift.quantity === 1 ? id : [id, gift.quantity];
    });
    const experiment = experimentOf.get(rule.id);
    if (experiment !== undefined && !experimentIndex.has(experiment)) experimentIndex.set(experiment, experimentIndex.size);
    const per = gifts.per;
    const compactPer: CompactPer | undefined =
      per === undefined ? undefined : [per.every, per.of === 'subtotal' ? 1 : 0, per.max, ...(per.currencyOverrides === undefined ? [] : [per.currencyOverrides])] as CompactPer;
    const priority = options.priority ?? 0;
    const stack: CompactStack | null = priority === 0 && options.exclusive !== true ? null : [priority, options.exclusive === true ? 1 : 0];
    if (options.exclusive === true) exclusive = true;
    const tail: unknown[] = [
      discount,
      titleKeys.indexOf(titleKey),
      experiment === undefined ? null : (experimentIndex.get(experiment) ?? null),
      compactPer ?? null,
      stack,
      options.maxPerCustomer ?? null,
    ];
    const defaults: unknown[] = [100, 0, null, null, null, null];
    while (tail.length > 0 && tail[tail.length - 1] === defaults[tail.length - 1]) tail.pop();
    rules.push([ruleKey, campaigns.indexOf(campaignKey), tree, compactGifts, ...tail] as CompactRule);
  }

  const settings = readShopSettings(payload.shopSettings ?? {})?.checkout ?? {};
  const k: CheckoutFunctionConfig['k'] = {};
  if (settings.stripZeroPriceItems === true) k.s = 1;
  if (settings.minOrderTotalCents !== undefined) k.n = settings.minOrderTotalCents;
  if (readShopSettings(payload.shopSettings ?? {})?.engine?.stacking === 'highest_tier') k.t = 1;
  const config: CheckoutFunctionConfig = {
    v: 2,
    c: payload.baseCurrency.toUpperCase(),
    p: campaigns,
    m: titles,
    ...(titleTranslations.some((t) => t !== 0) ? { l: trimmed(titleTranslations) } : {}),
    r: Object.fromEntries(rules.map((rule) => [rule[0], encodeRule(rule)])),
    ...(Object.keys(k).length > 0 ? { k } : {}),
    ...(exclusive ? { x: 1 as const } : {}),
  };
  const variables: CheckoutFunctionVariables = { tags: [...tags], collectionIds: [...collectionIds] };
  const variablesBytes = utf8Length(JSON.stringify(variables));
  const bytes = utf8Length(JSON.stringify(config)) + variablesBytes;
  const split = splitCheckoutConfig(config);
  return { config, variables, bytes, metafields: split.metafields, variablesBytes, fits: split.fits && variablesBytes <= CHECKOUT_CONFIG_LIMIT_BYTES, excluded };
}
