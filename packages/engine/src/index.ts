// The public surface of @gcrs/engine (the "." export). Everything here is pure (imports
// only zod), so the storefront bundle and the server share one implementation. The JSON
// Schema of a condition tree is the "./json-schema" subpath (src/json-schema.ts): building it
// runs z.toJSONSchema over every leaf at load, which a storefront or checkout never needs.

export { idKeyOf, numericIdOf } from './ids.ts';
export { STORABLE_TEXT_PATTERN, TEXT_ISSUE, isStorableText, textSchema } from './schema/text.ts';
export type { IdKey } from './ids.ts';
export {
  NUMERIC_ID_PATTERN,
  gidPattern,
  gidSchema,
  gidOrNumericIdSchema,
  numericIdSchema,
  productGidSchema,
  variantGidSchema,
  sellingPlanGidSchema,
} from './schema/gid.ts';
export { ONE_TIME_PURCHASE } from './schema/literals.ts';
export { shopSettingsPatchSchema } from './schema/shop-settings-patch.ts';
export type { ShopSettingsPatch, StoredShopSettings } from './schema/shop-settings-patch.ts';
export { STOREFRONT_EVENT_TYPES, storefrontEventSchema, storefrontTokenSchema } from './schema/storefront-event.ts';
export type { StorefrontEvent, StorefrontEventType } from './schema/storefront-event.ts';
export { LEAF_SCHEMAS, LEAF_TYPES, leafNodeSchema, isLeafType } from './schema/leaf-node.ts';
export type { LeafType, LeafNode, LeafOf } from './schema/leaf-node.ts';
export {
  COMBINATOR_TYPES,
  CONDITION_TYPES,
  conditionNodeSchema,
  validateConditionTree,
} from './schema/condition-node.ts';
export type {
  AndNode,
  OrNode,
  NotNode,
  CombinatorNode,
  ConditionNode,
  ConditionType,
  ConditionTreeValidation,
} from './schema/condition-node.ts';
export { giftSchema, giftConfigSchema, perSchema } from './schema/gift-config.ts';
export { BUDGET_WINDOWS, LOCALE_PATTERN, MAX_BUDGET_GIFTS, MAX_DISCOUNT_TITLE_CHARS, MAX_GIFT_SETS, MAX_PER_CUSTOMER, MAX_TITLE_TRANSLATIONS } from './schema/literals.ts';
export type { Gift, GiftConfig, GiftPer } from './schema/gift-config.ts';
export { RULE_OPTION_DEFAULTS, budgetSchema, discountTitleTranslationsSchema, ruleOptionsSchema } from './schema/rule-options.ts';
export type { Budget, RuleOptions } from './schema/rule-options.ts';
export { CURRENCY_CODE_PATTERN, cartLineSchema, evaluationContextSchema } from './schema/evaluation-context.ts';
export { acceptEvaluationContext, sameCollections } from './schema/evaluation-context-fast.ts';
export type { KnownCollections } from './schema/evaluation-context-fast.ts';
export type { CartLine, Cart, EvaluationContext, EvaluationContextInput } from './schema/evaluation-context.ts';
export { attributesFromList, lineAttributesSchema } from './schema/line-attributes.ts';
export type { LineAttributesInput } from './schema/line-attributes.ts';
export {
  payloadRuleSchema,
  engineExperimentSchema,
  shopSettingsSchema,
  resolvedShopSettingsSchema,
  rulesPayloadSchema,
  stackingSchema,
} from './schema/rules-payload.ts';
export { SUPPRESSED, stackRules } from './planner/stack-rules.ts';
export { LIMIT_REASON, customerLimit, isKnownCustomer } from './planner/customer-limit.ts';
export type { CustomerLimit, RedemptionCounts } from './planner/customer-limit.ts';
export type { StackEntry, Stacking, Suppression } from './planner/stack-rules.ts';
export { giftSets } from './planner/gift-sets.ts';
export type { GiftSets } from './planner/gift-sets.ts';
export type {
  PayloadRule,
  EngineExperiment,
  ShopSettings,
  ResolvedShopSettings,
  RulesPayload,
  RulesPayloadInput,
} from './schema/rules-payload.ts';
export { planSchema, LEAF_TYPES_BY_PLAN, isLeafAllowed, unlockingPlan } from './plan/plan-matrix.ts';
export { CAP_NAMES, PLANS, PLAN_IDS, PLAN_NAMES, byPlan, planRank } from './plan/plans.ts';
export type { CapName, Caps, PaidPlan, Plan } from './plan/plans.ts';
export { LEAVES, leafRecord } from './leaves/registry.ts';
export type { AnyLeafRecord, FieldOf } from './leaves/registry.ts';
export { leafForm, newLeaf } from './leaves/forms.ts';
export type { LeafField, LeafFieldKind, LeafForm, LeafMeta } from './leaves/leaf.ts';
export { stripDisallowedLeaves } from './plan/strip-disallowed-leaves.ts';
export { collectTriggerIds } from './plan/collect-trigger-ids.ts';
export {
  GIFT_CAMPAIGN_ATTRIBUTE,
  COLLECTIONS_ATTRIBUTE,
  isGiftLine,
  prepareContext,
} from './evaluate/prepare-context.ts';
export type { EvaluationOptions, PreparedContext, PreparedLine } from './evaluate/prepare-context.ts';
export { OUTCOME, COMBINATOR_REASON } from './evaluate/outcomes.ts';
export type { LeafOutcome } from './evaluate/outcomes.ts';
export type { LeafPredicate } from './evaluate/leaf-predicate.ts';
export { compileLeaf } from './evaluate/compile-leaf.ts';
export { stripWrappingQuotes } from './leaves/line-property-equals.ts';
export { MALFORMED_NODE, evaluateCondition } from './evaluate/evaluate-condition.ts';
export type { ConditionResult } from './evaluate/evaluate-condition.ts';
export { traceCondition } from './evaluate/trace-condition.ts';
export type { ConditionTrace } from './evaluate/trace-condition.ts';
export { compileConditionProgram } from './compile/condition-program.ts';
export type { ConditionProgram } from './compile/condition-program.ts';
export { compileRules } from './compile/compile-rules.ts';
export type { CompiledRule, CompiledRules } from './compile/compile-rules.ts';
export { fnv1a32 } from './planner/fnv1a.ts';
export { assignVariant } from './planner/assign-variant.ts';
export type { ExperimentVariant } from './planner/assign-variant.ts';
export { experimentAudienceWarnings } from './planner/experiment-audiences.ts';
export type { AudienceWarning } from './planner/experiment-audiences.ts';
export { SKIP_REASON, evaluateRules } from './planner/evaluate-rules.ts';
export type { RuleResult, RuleEvaluationOptions } from './planner/evaluate-rules.ts';
export { GIFT_ATTRIBUTE, giftLineAttributes, lineIdOf, locksQuantity } from './planner/operations.ts';
export type {
  AddOperation,
  RemoveOperation,
  UpdateOperation,
  ChooseOperation,
  CartOperation,
} from './planner/operations.ts';
export { planCart } from './planner/plan-cart.ts';
export type { PlanOptions, CartPlan } from './planner/plan-cart.ts';
export { applyOperations } from './planner/apply-operations.ts';
export type { GiftChoices } from './planner/apply-operations.ts';
export { DEFAULT_MINOR_UNIT, minorUnitExponent } from './currency/minor-units.ts';
export { toMinorUnits, toDecimalString } from './checkout/money.ts';
export {
  CUSTOM_CODE_MAX_CHARS,
  DEFAULT_WIDGET_DOCUMENT,
  MINIMAL_WIDGET_DOCUMENT,
  deliveredWidgetsSchema,
  hexColorSchema,
  multilineTextSchema,
  storedWidgetDocumentSchema,
  widgetDocumentSchema,
  widgetLocaleSchema,
  widgetSectionSchemas,
  widgetSettingsSchema,
  widgetUrlSchema,
} from './schema/widget-settings.ts';
export type {
  CustomCode,
  DeliveredWidgets,
  GiftChoiceSettings,
  ProgressBarSettings,
  PromoPopupSettings,
  ReminderSettings,
  ToastSettings,
  WidgetDocument,
  WidgetSectionKey,
  WidgetSettings,
} from './schema/widget-settings.ts';
