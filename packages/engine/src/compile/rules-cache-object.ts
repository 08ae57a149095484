/**
 * compileRules' memo by payload object (compile-rules.ts): the same payload object compiles
 * once. rules-cache.ts adds the cache by `version` on top; the storefront's first load, which
 * compiles the one payload of its page once, is built with this module alone
 * (packages/storefront/scripts/build-script.ts).
 */
import type { CompiledRules } from './compile-rules.ts';
import type { RulesPayloadInput } from '../schema/rules-payload.ts';

const byObject = new WeakMap<object, CompiledRules>();

/**
 * @example cachedCompile(payload, build) === cachedCompile(payload, build) // true
 */
export function cachedCompile(payload: RulesPayloadInput, compile: (payload: RulesPayloadInput) => CompiledRules): CompiledRules {
  let compiled = byObject.get(payload);
  if (compiled === undefined) {
    compiled = compile(payload);
    byObject.set(payload, compiled);
  }
  return compiled;
}
