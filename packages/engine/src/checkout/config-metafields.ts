/**
 * The configuration across the discount's metafields (docs/checkout-function.md "Several
 * metafields"). The platform returns a metafield to a function only up to 10,000 bytes, and
 * the input query's cost allows exactly two of them beside the customer's (30 of 30 points with the language), so
 * the shop's compact configuration is written as:
 *
 * - `$app:gifts` / `config`: the whole configuration when it fits; else its header and the first
 *   rules that fit, with `g`, a key of the whole configuration;
 * - `$app:gifts` / `config2`: `{ "g": <the same key>, "r": [the rules that follow] }`, or `{}`
 *   when `config` holds everything (a shrinking configuration empties it).
 *
 * Rules keep their order (`config.r` then `config2.r`) and are never cut. The function takes
 * `config2`'s rules only when its `g` is `config`'s: metafields of two different writes never
 * mix (the rules of a stale `config2` are simply absent, so their gifts pay full price).
 */
import type { ReadableCheckoutConfig } from './config-format.ts';
import { CHECKOUT_CONFIG_LIMIT_BYTES, keyOf, utf8Length } from './config-bytes.ts';

/** The discount metafields (namespace `$app:gifts`) the configuration spans, in order; the input query reads each. */
export const CONFIG_METAFIELD_KEYS = ['config', 'config2'] as const;

export type ConfigMetafieldKey = (typeof CONFIG_METAFIELD_KEYS)[number];

/** One metafield's JSON value as written, and its UTF-8 bytes. */
export type ConfigMetafield = { key: ConfigMetafieldKey; value: string; bytes: number };

/**
 * `config2`: the rules after `config`'s, under the key of the whole configuration; in the
 * configuration's format (an object of texts; an array in format 1).
 */
export type ConfigContinuation = { g: string; r: Record<string, string> | unknown[] };

/** The whole configuration when it is split: `g` names the write. */
type SplitHeader = ReadableCheckoutConfig & { g?: string };

const EMPTY = '{}';

const metafield = (key: ConfigMetafieldKey, value: string): ConfigMetafield => ({ key, value, bytes: utf8Length(value) });

/** A rule as it sits in `r`: `"key":text` in format 2 (the key undefined in format 1's array). */
type RuleEntry = [string | undefined, unknown];

const entryBytes = ([key, value]: RuleEntry): number => utf8Length(JSON.stringify(value)) + (key === undefined ? 0 : utf8Length(JSON.stringify(key)) + 1);

/** `r` of a metafield holding `entries`, in the configuration's format. */
const rulesOf = (entries: RuleEntry[], asArray: boolean): Record<string, unknown> | unknown[] =>
  asArray ? entries.map(([, value]) => value) : Object.fromEntries(entries);

/**
 * The metafields that hold `config`, each at most `limit` bytes; `fits` false when the rules do
 * not fit in all of them (the metafields then hold the rules that fit, and are not to be written).
 * Either format (a record written before format 2 is still listed by `GET …/checkout-config`).
 *
 * @example splitCheckoutConfig(built.config).metafields.map((m) => [m.key, m.bytes]) // [['config', 9874], ['config2', 6120]]
 */
export function splitCheckoutConfig(config: ReadableCheckoutConfig, limit: number = CHECKOUT_CONFIG_LIMIT_BYTES): { metafields: ConfigMetafield[]; fits: boolean } {
  const whole = JSON.stringify(config);
  if (utf8Length(whole) <= limit) {
    return { metafields: CONFIG_METAFIELD_KEYS.map((key, i) => metafield(key, i === 0 ? whole : EMPTY)), fits: true };
  }
  const g = keyOf(whole);
  const asArray = config.v === 1;
  const entries: RuleEntry[] = config.v === 1 ? config.r.map((rule): RuleEntry => [undefined, rule]) : Object.entries(config.r);
  const shellOf = (i: number, rules: RuleEntry[]) => (i === 0 ? { ...config, r: rulesOf(rules, asArray), g } : { g, r: rulesOf(rules, asArray) });
  const parts: RuleEntry[][] = CONFIG_METAFIELD_KEYS.map(() => []);
  let index = 0;
  let size = utf8Length(JSON.stringify(shellOf(0, [])));
  let fits = true;
  for (const entry of entries) {
    const ruleBytes = entryBytes(entry);
    let part = parts[index];
    while (part !== undefined && size + (part.length > 0 ? 1 : 0) + ruleBytes > limit) {
      index += 1;
      part = parts[index];
      size = part === undefined ? 0 : utf8Length(JSON.stringify(shellOf(index, [])));
    }
    if (part === undefined) {
      fits = false;
      break;
    }
    size += (part.length > 0 ? 1 : 0) + ruleBytes;
    part.push(entry);
  }
  const metafields = CONFIG_METAFIELD_KEYS.map((key, i) => metafield(key, JSON.stringify(shellOf(i, parts[i] ?? []))));
  return { metafields, fits: fits && metafields.every((m) => m.bytes <= limit) };
}

/**
 * The configuration the function runs on: `config` with the rules of the continuation
 * metafield that carries its key. Undefined (no discount) when `config` is malformed. Both
 * formats are read (1: rules as arrays; 2: rules as texts): a configuration written before the
 * server wrote format 2 stays until its next sync. In format 2 `config2`'s rules are `r2`
 * (rule-text.ts): merging them into `r` would copy every rule, ~1.3K instructions each.
 *
 * @example joinCheckoutConfig(input.discount?.metafield?.jsonValue, [input.discount?.config2?.jsonValue])
 */
export function joinCheckoutConfig(value: unknown, continuations: readonly unknown[]): ReadableCheckoutConfig | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const config = value as Partial<SplitHeader> & { r?: unknown };
  const format2 = config.v === 2 && typeof config.r === 'object' && config.r !== null && !Array.isArray(config.r);
  const format1 = config.v === 1 && Array.isArray(config.r);
  if (!(format1 || format2) || typeof config.c !== 'string' || !Array.isArray(config.p) || !Array.isArray(config.m)) return undefined;
  // The common case, one metafield: the configuration as it came (`r2` is never written).
  if (typeof config.g !== 'string' && !('r2' in config)) return config as ReadableCheckoutConfig;
  const { g, r2: _ignored, ...header } = config as SplitHeader & { r2?: unknown };
  if (typeof g !== 'string') return header as ReadableCheckoutConfig;
  const [continuation] = continuations;
  const part = continuation as Partial<ConfigContinuation> | null | undefined;
  if (typeof part !== 'object' || part === null || part.g !== g) return header as ReadableCheckoutConfig;
  if (format1) return Array.isArray(part.r) ? ({ ...header, r: [...(header.r as unknown[]), ...part.r] } as ReadableCheckoutConfig) : (header as ReadableCheckoutConfig);
  const more = part.r;
  return typeof more === 'object' && more !== null && !Array.isArray(more) ? ({ ...header, r2: more } as ReadableCheckoutConfig) : (header as ReadableCheckoutConfig);
}
