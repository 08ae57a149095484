/**
 * The checkout function's rules as it reads them from the compact configuration
 * (compact-config.ts): each rule parsed from its text (format 2, rule-text.ts) or taken as the
 * array of format 1, checked field by field (a malformed one is dropped: its gifts pay full
 * price), and only when first asked for.
 */
import { readPer } from '../compile/read-rule-parts.ts';
import { idKeyOf } from '../ids.ts';
import type { GiftPer } from '../schema/gift-config.ts';
import type { CompactRule, ReadableCheckoutConfig } from './compact-config.ts';
import { decodeRule } from './rule-text.ts';

export type Rule = {
  campaign: string;
  tree: unknown;
  gifts: Map<string, number>;
  discount: number | [number];
  title: string;
  experiment: number | undefined;
  per: GiftPer | undefined;
  priority: number;
  exclusive: boolean;
  /** Per-customer limit (options.maxPerCustomer); undefined = none. */
  maxPerCustomer: number | undefined;
  matched?: boolean;
};

/**
 * The platform's `LanguageCode` (`FR`, `PT_BR`) as the configuration keys its translations
 * (`fr`, `pt-br`); undefined without one.
 *
 * @example buyerLocale('PT_BR') // 'pt-br'
 */
export const buyerLocale = (isoCode: unknown): string | undefined => (typeof isoCode === 'string' && isoCode !== '' ? isoCode.toLowerCase().replace(/_/g, '-') : undefined);

/**
 * Title `index` of the configuration in the buyer's locale: the exact locale, else its language
 * (`pt` for `pt-br`), else the title itself (`discountTitle`, the shop's default language).
 */
function titleIn(config: ReadableCheckoutConfig, index: number, locale: string | undefined): string {
  const title = String(config.m[index] ?? '');
  const translations = locale === undefined || !Array.isArray(config.l) ? undefined : config.l[index];
  if (typeof translations !== 'object' || translations === null || locale === undefined) return title;
  const dash = locale.indexOf('-');
  const found = translations[locale] ?? (dash > 0 ? translations[locale.slice(0, dash)] : undefined);
  return typeof found === 'string' && found !== '' ? found : title;
}

function readRule(compact: CompactRule, config: ReadableCheckoutConfig, locale: string | undefined): Rule | undefined {
  if (!Array.isArray(compact)) return undefined;
  const [, campaignIndex, tree, compactGifts, discount = 100, titleIndex = 0, experiment, compactPer, stack, maxPerCustomer] = compact;
  const campaign = config.p[campaignIndex];
  if (typeof campaign !== 'string' || !Array.isArray(compactGifts)) return undefined;
  const gifts = new Map<string, number>();
  for (const gift of compactGifts) {
    const [id, quantity] = Array.isArray(gift) ? gift : [gift, 1];
    const variant = idKeyOf(id);
    if (variant !== undefined && Number.isSafeInteger(quantity) && quantity > 0) gifts.set(String(variant), quantity);
  }
  const valid = typeof discount === 'number' ? discount > 0 && discount <= 100 : Array.isArray(discount) && Number.isSafeInteger(discount[0]) && discount[0] > 0;
  if (!valid) return undefined;
  let per: GiftPer | undefined;
  if (compactPer !== undefined && compactPer !== null) {
    if (!Array.isArray(compactPer)) return undefined;
    const [every, of, max, currencyOverrides] = compactPer;
    per = readPer({ every, of: of === 1 ? 'subtotal' : of === 0 ? 'items' : undefined, max, currencyOverrides });
    if (per === undefined) return undefined;
  }
  let priority = 0;
  let exclusive = false;
  if (stack !== undefined && stack !== null) {
    if (!Array.isArray(stack) || !Number.isSafeInteger(stack[0]) || (stack[1] !== 0 && stack[1] !== 1)) return undefined;
    [priority] = stack;
    exclusive = stack[1] === 1;
  }
  // A limit that is not a positive integer drops the rule (fail closed), like any malformed field.
  if (maxPerCustomer !== undefined && maxPerCustomer !== null && !(Number.isSafeInteger(maxPerCustomer) && maxPerCustomer >= 1)) return undefined;
  const title = titleIn(config, titleIndex, locale);
  return { campaign, tree, gifts, discount, title, experiment: typeof experiment === 'number' ? experiment : undefined, per, priority, exclusive, maxPerCustomer: maxPerCustomer ?? undefined };
}

/**
 * The configuration's rules by key, each read (`readRule`) when first asked for: most carts
 * claim a few rules, and reading all of a 100-rule configuration costs the function about
 * 4.6M of its WebAssembly instructions. In format 2 a rule is found by one property read of
 * `r` (or `r2`, `config2`'s rules) and its text parsed then (rule-text.ts); nothing is done per
 * rule before. `all()` reads every rule, in configuration order. `locale` (`buyerLocale`) picks
 * each rule's title.
 */
export type RuleBook = { get(key: string): Rule | undefined; keyOf: Map<Rule, string>; all(): Rule[] };

export function ruleBook(config: ReadableCheckoutConfig, locale?: string): RuleBook {
  const read = new Map<string, Rule | undefined>();
  const keyOfRule = new Map<Rule, string>();
  const remember = (key: string, compact: unknown): Rule | undefined => {
    const rule = Array.isArray(compact) ? readRule(compact as CompactRule, config, locale) : undefined;
    read.set(key, rule);
    if (rule !== undefined) keyOfRule.set(rule, key);
    return rule;
  };
  if (config.v === 2) {
    const parts = config.r2 === undefined ? [config.r] : [config.r, config.r2];
    // Own texts only: a key such as `constructor` names no rule (inherited values are not strings).
    const textOf = (key: string): string | undefined => {
      for (const part of parts) {
        const text: unknown = part[key];
        if (typeof text === 'string') return text;
      }
      return undefined;
    };
    const get = (key: string): Rule | undefined => {
      if (read.has(key)) return read.get(key);
      const text = textOf(key);
      return remember(key, text === undefined ? undefined : decodeRule(key, text));
    };
    const all = (): Rule[] => {
      const rules = new Set<Rule>();
      for (const part of parts) {
        for (const key of Object.keys(part)) {
          const rule = get(key);
          if (rule !== undefined) rules.add(rule);
        }
      }
      return [...rules];
    };
    return { get, keyOf: keyOfRule, all };
  }
  const compacts = new Map<string, CompactRule>();
  for (const compact of config.r) if (Array.isArray(compact)) compacts.set(String(compact[0]), compact);
  const get = (key: string): Rule | undefined => (read.has(key) ? read.get(key) : remember(key, compacts.get(key)));
  const all = () => [...compacts.keys()].flatMap((key) => get(key) ?? []);
  return { get, keyOf: keyOfRule, all };
}

/**
 * Whether some rule of the configuration is exclusive, so stacking under "all" can suppress a
 * rule: format 2 says so in `x` (its rules are unparsed texts), format 1 in each rule's `stack`.
 */
export const hasExclusiveRule = (config: ReadableCheckoutConfig): boolean =>
  config.v === 2 ? config.x === 1 : config.r.some((compact) => Array.isArray(compact) && Array.isArray(compact[8]) && compact[8][1] === 1);
