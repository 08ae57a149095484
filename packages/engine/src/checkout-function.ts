// The "./checkout" export of @gcrs/engine: the checkout discount function's logic and the
// compact configuration it reads, with no Zod in the import graph (the function's bundle is
// compiled to a QuickJS module by the platform, where size counts).
export { runGiftDiscount } from './checkout/gift-discount.ts';
export type { GiftFunctionInput, GiftFunctionLine, GiftFunctionResult, GiftDiscountCandidate, GiftDiscountValue } from './checkout/function-input.ts';
export { CHECKOUT_CONFIG_LIMIT_BYTES, buildCheckoutConfig, keyOf, utf8Length } from './checkout/compact-config.ts';
export type {
  CheckoutConfigBuild,
  CheckoutFunctionConfig,
  CheckoutFunctionConfigV1,
  CheckoutFunctionVariables,
  CompactRule,
  ConfigCollection,
  ExcludedRule,
  ReadableCheckoutConfig,
} from './checkout/compact-config.ts';
export { compactRules, decodeRule, encodeRule } from './checkout/rule-text.ts';
export { LEAF_CODEC, decodeTree, encodeTree } from './checkout/compact-tree.ts';
export { CONFIG_METAFIELD_KEYS, joinCheckoutConfig, splitCheckoutConfig } from './checkout/config-metafields.ts';
export type { ConfigContinuation, ConfigMetafield, ConfigMetafieldKey } from './checkout/config-metafields.ts';
export { FUNCTION_OUTPUT_LIMIT_BYTES, fitOutput, textBytes } from './checkout/fit-output.ts';
export {
  FUNCTION_INPUT_LIMIT_BYTES,
  FUNCTION_INPUT_LINES,
  INPUT_ENVELOPE_BYTES,
  INPUT_LINE_BYTES,
  INPUT_MEMBERSHIP_BYTES,
  INPUT_REDEMPTION_BYTES,
  INPUT_TAG_BYTES,
  estimateFunctionInput,
  inputSizeParts,
} from './checkout/input-size.ts';
export type { InputSizeEstimate, InputSizeParts } from './checkout/input-size.ts';
