/**
 * compileRules' memo by payload object (compile-rules.ts): the same payload object compiles
 * once. rules-cache.ts adds the cache by `version` on top; the storefront's first load, which
 * compiles the one payload of its page once, is built with this module alone
 * (packages/storefront/scripts/build-script.ts).
 */
import type { RulesPayloadInput } from '../schema/rules-payload.ts';

// Generic in what compile builds (compile-rules.ts' CompiledRules), so this module imports nothing of it.
const byObject = new WeakMap<object, unknown>();

/**
 * @example cachedCompile(payload, build) === cachedCompile(payload, build) // true
 */
export function cachedCompile<T>(payload: RulesPayloadInput, compile: (payload: RulesPayloadInput) => T): T {
  let compiled = byObject.get(payload) as T | undefined;
  if (compiled === undefined) {
    compiled = compile(payload);
    byObject.set(payload, compiled);
  }
  return compiled;
}
