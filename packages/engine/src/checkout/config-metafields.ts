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
import type { CheckoutFunctionConfig, CompactRule } from './config-format.ts';
import { CHECKOUT_CONFIG_LIMIT_BYTES, keyOf, utf8Length } from './config-bytes.ts';

/** The discount metafields (namespace `$app:gifts`) the configuration spans, in order; the input query reads each. */
export const CONFIG_METAFIELD_KEYS = ['config', 'config2'] as const;

export type ConfigMetafieldKey = (typeof CONFIG_METAFIELD_KEYS)[number];

/** One metafield's JSON value as written, and its UTF-8 bytes. */
export type ConfigMetafield = { key: ConfigMetafieldKey; value: string; bytes: number };

/** `config2`: the rules after `config`'s, under the key of the whole configuration. */
export type ConfigContinuation = { g: string; r: CompactRule[] };

/** The whole configuration when it is split: `g` names the write. */
type SplitHeader = CheckoutFunctionConfig & { g?: string };

const EMPTY = '{}';

const metafield = (key: ConfigMetafieldKey, value: string): ConfigMetafield => ({ key, value, bytes: utf8Length(value) });

/**
 * The metafields that hold `config`, each at most `limit` bytes; `fits` false when the rules do
 * not fit in all of them (the metafields then hold the rules that fit, and are not to be written).
 *
 * @example splitCheckoutConfig(built.config).metafields.map((m) => [m.key, m.bytes]) // [['config', 9874], ['config2', 6120]]
 */
export function splitCheckoutConfig(config: CheckoutFunctionConfig, limit: number = CHECKOUT_CONFIG_LIMIT_BYTES): { metafields: ConfigMetafield[]; fits: boolean } {
  const whole = JSON.stringify(config);
  if (utf8Length(whole) <= limit) {
    return { metafields: CONFIG_METAFIELD_KEYS.map((key, i) => metafield(key, i === 0 ? whole : EMPTY)), fits: true };
  }
  const g = keyOf(whole);
  const shells: Array<SplitHeader | ConfigContinuation> = CONFIG_METAFIELD_KEYS.map((_, i) => (i === 0 ? { ...config, r: [], g } : { g, r: [] }));
  let index = 0;
  let size = utf8Length(JSON.stringify(shells[0]));
  let fits = true;
  for (const rule of config.r) {
    const ruleBytes = utf8Length(JSON.stringify(rule));
    let shell = shells[index];
    while (shell !== undefined && size + (shell.r.length > 0 ? 1 : 0) + ruleBytes > limit) {
      index += 1;
      shell = shells[index];
      size = shell === undefined ? 0 : utf8Length(JSON.stringify(shell));
    }
    if (shell === undefined) {
      fits = false;
      break;
    }
    size += (shell.r.length > 0 ? 1 : 0) + ruleBytes;
    shell.r.push(rule);
  }
  const metafields = CONFIG_METAFIELD_KEYS.map((key, i) => metafield(key, JSON.stringify(shells[i])));
  return { metafields, fits: fits && metafields.every((m) => m.bytes <= limit) };
}

/**
 * The configuration the function runs on: `config` with the rules of the continuation
 * metafields that carry its key. Undefined (no discount) when `config` is malformed.
 *
 * @example joinCheckoutConfig(input.discount?.metafield?.jsonValue, [input.discount?.config2?.jsonValue])
 */
export function joinCheckoutConfig(value: unknown, continuations: readonly unknown[]): CheckoutFunctionConfig | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const config = value as Partial<SplitHeader>;
  if (config.v !== 1 || typeof config.c !== 'string' || !Array.isArray(config.r) || !Array.isArray(config.p) || !Array.isArray(config.m)) {
    return undefined;
  }
  if (typeof config.g !== 'string') return config as CheckoutFunctionConfig;
  const rules: CompactRule[] = [...config.r];
  for (const continuation of continuations) {
    const part = continuation as Partial<ConfigContinuation> | null | undefined;
    if (typeof part !== 'object' || part === null || part.g !== config.g || !Array.isArray(part.r)) break;
    rules.push(...part.r);
  }
  const joined: SplitHeader = { ...(config as CheckoutFunctionConfig), r: rules };
  delete joined.g;
  return joined;
}
