// The "./planner" export of @gcrs/engine: evaluation and planning without a single Zod
// schema in the import graph, for bundles where size counts (the storefront script). It
// compiles payloads with plain readers (compile/read-rule-parts.ts) instead of the schemas;
// validating input is the caller's business (the server validated the payload it serves).
export { compileRules } from './compile/compile-rules.ts';
export type { CompiledRule, CompiledRules } from './compile/compile-rules.ts';
export { assignVariant } from './planner/assign-variant.ts';
export { SKIP_REASON, evaluateRules } from './planner/evaluate-rules.ts';
export type { RuleResult, RuleEvaluationOptions } from './planner/evaluate-rules.ts';
export { GIFT_ATTRIBUTE, giftLineAttributes, lineIdOf, locksQuantity } from './planner/operations.ts';
export type { AddOperation, RemoveOperation, UpdateOperation, ChooseOperation, CartOperation } from './planner/operations.ts';
export { planCart } from './planner/plan-cart.ts';
export type { PlanOptions, CartPlan } from './planner/plan-cart.ts';
export { applyOperations } from './planner/apply-operations.ts';
export { SUPPRESSED, stackRules } from './planner/stack-rules.ts';
export { LIMIT_REASON, customerLimit, isKnownCustomer } from './planner/customer-limit.ts';
export type { CustomerLimit, RedemptionCounts } from './planner/customer-limit.ts';
export { giftSets } from './planner/gift-sets.ts';
export type { GiftSets } from './planner/gift-sets.ts';
export type { GiftChoices } from './planner/apply-operations.ts';
export { GIFT_CAMPAIGN_ATTRIBUTE, isGiftLine, prepareContext } from './evaluate/prepare-context.ts';
export { evaluateCondition } from './evaluate/evaluate-condition.ts';
export { thresholdResolver } from './evaluate/threshold.ts';
export type { ThresholdPlace } from './evaluate/threshold.ts';
export { normaliseCurrency } from './evaluate/prepare-context.ts';
export type { ConditionTrace } from './evaluate/trace-condition.ts';
export { minorUnitExponent } from './currency/minor-units.ts';
export { toMinorUnits, toDecimalString } from './checkout/money.ts';
// Types only (erased): these name the shapes without loading the schemas.
export type { CartLine, Cart, EvaluationContext } from './schema/evaluation-context.ts';
export type { RulesPayloadInput, ShopSettings, EngineExperiment } from './schema/rules-payload.ts';
export type { ConditionNode } from './schema/condition-node.ts';
