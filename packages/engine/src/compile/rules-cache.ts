/**
 * compileRules' memo (compile-rules.ts): compiled rules are reused for the same payload object
 * (rules-cache-object.ts), and for a re-fetched payload that carries the same `version` (e.g. its
 * ETag); the version cache keeps a few entries.
 */
import type { RulesPayloadInput } from '../schema/rules-payload.ts';
import { cachedCompile as cachedByObject } from './rules-cache-object.ts';

// Generic in what compile builds, as rules-cache-object.ts: compile-rules.ts imports this module.
const byVersion = new Map<string, unknown>();
const VERSION_CACHE_SIZE = 8;

/**
 * @example cachedCompile({ ...payload }, build) === cachedCompile({ ...payload }, build) // true when payload.version is set
 */
export function cachedCompile<T>(payload: RulesPayloadInput, compile: (payload: RulesPayloadInput) => T): T {
  return cachedByObject(payload, () => {
    const versionKey = payload.version === undefined ? undefined : `${typeof payload.version}:${payload.version}`;
    const versioned = versionKey === undefined ? undefined : (byVersion.get(versionKey) as T | undefined);
    if (versioned !== undefined) return versioned;
    const compiled = compile(payload);
    if (versionKey !== undefined) {
      byVersion.set(versionKey, compiled);
      const oldest = byVersion.keys().next();
      if (byVersion.size > VERSION_CACHE_SIZE && oldest.done !== true) byVersion.delete(oldest.value);
    }
    return compiled;
  });
}
