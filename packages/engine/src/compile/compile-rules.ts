import type { Gift, GiftPer } from '../schema/gift-config.ts';
import type { RuleOptions } from '../schema/rule-options.ts';
import type { EngineExperiment, RulesPayloadInput, ShopSettings } from '../schema/rules-payload.ts';
import { readGiftConfig, readRuleOptions, readShopSettings } from './read-rule-parts.ts';
import type { ConditionProgram } from './condition-program.ts';
import { compileConditionProgram } from './condition-program.ts';
import { cachedCompile } from './rules-cache.ts';

/** One rule, ready to evaluate: its program compiled, its options and gifts defaulted. */
export type CompiledRule = {
  id: string;
  campaignId: string;
  /** The tree as delivered, for traces. */
  conditionTree: unknown;
  program: ConditionProgram;
  /** `undefined` when giftConfig or options were invalid: the rule then fails closed. */
  options: RuleOptions | undefined;
  gifts: readonly Gift[];
  fallbackOnOOS: boolean;
  /** Repeatable gift (giftConfig.per); undefined = one set. */
  per: GiftPer | undefined;
  enabled: boolean;
  /** Schedule window in epoch ms; NaN marks an unreadable timestamp (fails closed). */
  startsAt: number | undefined;
  endsAt: number | undefined;
};

/** A rules payload compiled once; {@link planCart} and the checkout logic run on this. */
export type CompiledRules = {
  readonly kind: 'compiled-rules';
  baseCurrency: string;
  useDiscountedPrices: boolean;
  shopSettings: ShopSettings;
  rules: readonly CompiledRule[];
  rulesById: ReadonlyMap<string, CompiledRule>;
  experiments: readonly EngineExperiment[];
  /** Rule id -> the experiment one of whose variants it is. */
  experimentOfRule: ReadonlyMap<string, EngineExperiment>;
};

/**
 * Compiles a rules payload once into plain closures and flat condition programs, so that
 * evaluating a cart parses nothing. Cached per payload object and per `version` (rules-cache.ts).
 * Trees are compiled without recursion (any depth). Payload parts are not re-validated
 * beyond defaults: an invalid giftConfig or options makes that rule fail closed.
 *
 * @example
 * const compiled = compileRules({ ...rulesPayload, baseCurrency: 'USD' });
 * planCart(compiled, ctx, { visitorId });
 */
export function compileRules(payload: RulesPayloadInput): CompiledRules {
  return cachedCompile(payload, build);
}

function build(payload: RulesPayloadInput): CompiledRules {
  // Plain readers, not the Zod schemas: this runs in the storefront bundle (read-rule-parts.ts).
  const shopSettings = readShopSettings(payload.shopSettings ?? {}) ?? {};
  const rules: CompiledRule[] = [];
  const rulesById = new Map<string, CompiledRule>();
  for (const rule of payload.rules) {
    const compiled = compileRule(rule);
    rules.push(compiled);
    rulesById.set(compiled.id, compiled);
  }
  const experiments = payload.experiments ?? [];
  const experimentOfRule = new Map<string, EngineExperiment>();
  for (const experiment of experiments) {
    for (const variant of experiment.variants) experimentOfRule.set(variant.ruleId, experiment);
  }
  return {
    kind: 'compiled-rules',
    baseCurrency: payload.baseCurrency,
    useDiscountedPrices: shopSettings.engine?.useDiscountedPrices === true,
    shopSettings,
    rules,
    rulesById,
    experiments,
    experimentOfRule,
  };
}

function compileRule(rule: RulesPayloadInput['rules'][number]): CompiledRule {
  const gifts = readGiftConfig(rule.giftConfig);
  const options = readRuleOptions(rule.options);
  const valid = gifts !== undefined && options !== undefined;
  return {
    id: rule.id,
    campaignId: rule.campaignId,
    conditionTree: rule.conditionTree,
    program: compileConditionProgram(rule.conditionTree),
    options: valid ? options : undefined,
    gifts: gifts?.gifts ?? [],
    fallbackOnOOS: gifts?.fallbackOnOOS === true,
    per: gifts?.per,
    enabled: rule.enabled !== false,
    startsAt: toEpoch(rule.startAt),
    endsAt: toEpoch(rule.endAt),
  };
}

function toEpoch(timestamp: string | null | undefined): number | undefined {
  if (timestamp === undefined || timestamp === null) return undefined;
  return Date.parse(timestamp);
}
