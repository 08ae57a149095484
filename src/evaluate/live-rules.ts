/** The shop's live rules, compiled: exactly the payload GET /rules serves, never a second builder. */
import { compileRules } from '@gcrs/engine';
import type { CompiledRules } from '@gcrs/engine';
import type { Trigger } from '../http/shop-routes.ts';
import type { RulesCache } from '../rules/rules-cache.ts';

/**
 * The compiled form of the rules payload `mount` is served. The rules cache hands out the
 * same payload object for as long as its entry is exact, and compileRules keeps one
 * compilation per payload object, so repeated evaluations compile nothing. Undefined when
 * the shop no longer exists.
 *
 * @example
 *   const rules = await liveCompiledRules(ctx.rulesCache, shop, 'api'); // rules?.rules.length
 */
export async function liveCompiledRules(
  cache: RulesCache,
  shop: { id: string; rulesVersion: number },
  mount: Trigger,
): Promise<CompiledRules | undefined> {
  // The payload object only: evaluation sends none of GET /rules's bytes, so it builds none.
  const payload = await cache.payload(shop, mount);
  return payload === undefined ? undefined : compileRules(payload);
}
