/**
 * The checkout discount that trusts nothing (CONTRACT "Checkout"). A line carrying
 * `_svc_campaign_id`/`_svc_rule_id` is discounted only when, all from the function input and
 * the configuration the server wrote:
 * 1. the rule is in the configuration (live: enabled, not draft, in its schedule, not
 *    deleted) and the line's campaign is the rule's campaign;
 * 2. the line's variant is one of the rule's gifts;
 * 3. the rule's condition tree matches the cart without the gift lines (currency,
 *    country, customer and collections from the platform, never from line attributes);
 * 4. the units discounted for the rule stay within its gift's quantity (one gift variant
 *    per rule, as the planner gives; one rule per experiment), times the gift sets of a
 *    repeatable gift (`giftSets`, the planner's own count, from the non-gift lines of the
 *    input); the excess pays full price;
 * 4b. no higher matching rule suppresses it (stacking: `exclusive`, `highest_tier`), decided
 *    by the planner's own `stackRules`;
 * 4c. a rule with a per-customer limit has a signed-in buyer whose redemptions (the customer
 *    metafield `$app:gifts` / `redemptions`) are below it, decided by the planner's own
 *    `customerLimit`; no buyer, or a malformed metafield, gives nothing (fail closed). Such a
 *    rule takes no part in stacking, as in the planner;
 * 5. `checkout.minOrderTotalCents` (base currency) is reached by the non-gift lines, and a
 *    line priced 0 under `stripZeroPriceItems` is left alone.
 * Anything else — a forged attribute, a malformed configuration — pays full price.
 */
import { compileConditionProgram } from '../compile/condition-program.ts';
import type { RedemptionCounts } from '../planner/customer-limit.ts';
import { LIMIT_REASON, customerLimit, isKnownCustomer } from '../planner/customer-limit.ts';
import { giftSets } from '../planner/gift-sets.ts';
import type { StackEntry, Stacking } from '../planner/stack-rules.ts';
import { stackRules } from '../planner/stack-rules.ts';
import { prepareContext } from '../evaluate/prepare-context.ts';
import { openCollectionMap } from '../evaluate/collection-map.ts';
import type { IdKey } from '../ids.ts';
import { gidKeyOf } from '../ids.ts';
import { minorUnitExponent } from '../currency/minor-units.ts';
import type { ReadableCheckoutConfig } from './compact-config.ts';
import { keyOf } from './compact-config.ts';
import { joinCheckoutConfig } from './config-metafields.ts';
import { fitOutput } from './fit-output.ts';
import type { Rule, RuleBook } from './config-rules.ts';
import { buyerLocale, hasExclusiveRule, ruleBook } from './config-rules.ts';
import { decodeTree } from './compact-tree.ts';
import { treeNeeds } from './tree-needs.ts';
import { tallyInputLines } from './tally-lines.ts';
import type { GiftDiscountCandidate, GiftDiscountValue, GiftFunctionInput, GiftFunctionLine, GiftFunctionResult } from './function-input.ts';
import { toDecimalString, toMinorUnits } from './money.ts';

const NO_DISCOUNT: GiftFunctionResult = { operations: [] };

/** A JSON metafield's value (`jsonValue`, else `value` parsed); MALFORMED when `value` is not JSON. */
const MALFORMED = Symbol('malformed');
function metafieldJson(metafield: { jsonValue?: unknown; value?: unknown } | null | undefined): unknown {
  if (metafield?.jsonValue !== undefined || typeof metafield?.value !== 'string') return metafield?.jsonValue;
  try {
    return JSON.parse(metafield.value) as unknown;
  } catch {
    return MALFORMED;
  }
}

/** The configuration: `config`, with `config2`'s rules when it continues it (config-metafields.ts). */
const readConfig = (input: GiftFunctionInput): ReadableCheckoutConfig | undefined =>
  joinCheckoutConfig(metafieldJson(input.discount?.metafield), [metafieldJson(input.discount?.config2)]);

const attributeOf = (field: { value?: string | null } | null | undefined): string | undefined =>
  typeof field?.value === 'string' ? field.value : undefined;

/** A line's variant as its id key (gidKeyOf: idKeyOf's answer for fewer instructions). */
const variantKeyOf = (line: GiftFunctionLine): IdKey | undefined => (typeof line.merchandise.id === 'string' ? gidKeyOf(line.merchandise.id) : undefined);

/** The rule a line claims, by full id or by key; undefined when none. */
function claimedRule(line: GiftFunctionLine, rules: RuleBook): Rule | undefined {
  const ruleId = attributeOf(line.ruleId);
  const campaignId = attributeOf(line.campaignId);
  if (ruleId === undefined || campaignId === undefined) return undefined;
  const rule = rules.get(ruleId) ?? rules.get(keyOf(ruleId));
  if (rule === undefined || (rule.campaign !== campaignId && rule.campaign !== keyOf(campaignId))) return undefined;
  const variant = variantKeyOf(line);
  return variant !== undefined && rule.gifts.has(String(variant)) ? rule : undefined;
}

function discountValue(rule: Rule, currency: string, config: ReadableCheckoutConfig, rate: number): GiftDiscountValue | undefined {
  if (typeof rule.discount === 'number') return { percentage: { value: String(rule.discount) } };
  // A fixed amount is in the base currency; the platform wants the cart's, at its own rate.
  const base = rule.discount[0];
  const sameCurrency = currency === config.c;
  if (!sameCurrency && !(rate > 0 && Number.isFinite(rate))) return undefined;
  const minor = sameCurrency ? base : Math.floor(toMinorUnits(toDecimalString(base, config.c), currency) * rate);
  return minor > 0 ? { fixedAmount: { amount: toDecimalString(minor, currency), appliesToEachItem: true } } : undefined;
}

/**
 * The buyer's redemption counts from the customer metafield (`{ "<ruleId>": count }`), keyed
 * as the configuration keys its rules: by full id and by short key (`keyOf`); two ids sharing
 * a key keep the larger count (stricter). Undefined (every limited rule gives nothing) when
 * there is no signed-in buyer or the metafield is malformed; an absent metafield is no
 * redemptions yet.
 */
function readRedemptions(input: GiftFunctionInput): RedemptionCounts | undefined {
  const buyer = input.cart.buyerIdentity;
  const customer = buyer?.customer;
  if (!isKnownCustomer(customer == null ? null : { id: customer.id, loggedIn: buyer?.isAuthenticated === true })) return undefined;
  const metafield = customer?.metafield;
  const value = metafieldJson(metafield);
  if (value === MALFORMED) return undefined;
  if (value === undefined || value === null) return metafield == null ? {} : undefined;
  if (typeof value !== 'object' || Array.isArray(value)) return undefined;
  const counts: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const [ruleId, count] of Object.entries(value)) {
    if (!Number.isSafeInteger(count) || (count as number) < 0) return undefined;
    for (const key of [ruleId, keyOf(ruleId)]) counts[key] = Math.max(counts[key] ?? 0, count as number);
  }
  return counts;
}

/**
 * Only an exclusive rule can suppress under "all" (a malformed one is dropped when read): the
 * configuration says whether it has one; a claimed exclusive rule (already read) counts anyway.
 */
const stackingCanSuppress = (config: ReadableCheckoutConfig, stacking: Stacking, exclusiveClaim: boolean): boolean =>
  stacking !== 'all' || exclusiveClaim || hasExclusiveRule(config);

/**
 * The rules stacking suppresses (`stackRules`, as the planner applies it): the matching rules
 * in configuration (payload) order, where a rule of an experiment counts only when a line
 * claims it (the function does not know the visitor's variant; the storefront only adds the
 * assigned one). Called only when stacking can suppress anything (`stackingCanSuppress`): it
 * evaluates every tree.
 */
function suppressedRules(
  rules: RuleBook,
  claims: ReadonlyArray<Rule | undefined>,
  stacking: Stacking,
  matches: (rule: Rule) => boolean,
): Set<Rule> {
  const all = rules.all();
  const claimed = new Set(claims);
  const byKey = new Map<string, Rule>();
  const matching: StackEntry[] = [];
  for (const rule of all) {
    if (rule.experiment !== undefined && !claimed.has(rule)) continue;
    if (!matches(rule)) continue;
    const key = rules.keyOf.get(rule) ?? '';
    byKey.set(key, rule);
    matching.push({ id: key, campaign: rule.campaign, priority: rule.priority, exclusive: rule.exclusive });
  }
  const suppressed = new Set<Rule>();
  for (const key of stackRules(matching, stacking).keys()) {
    const rule = byKey.get(key) ?? rules.get(key);
    if (rule !== undefined) suppressed.add(rule);
  }
  return suppressed;
}

/**
 * The Discount Function API result for one cart: one product discount candidate per rule,
 * targeting its verified gift lines with the quantity each may have discounted.
 *
 * @example runGiftDiscount(input) // { operations: [{ productDiscountsAdd: { candidates, selectionStrategy: 'ALL' } }] }
 */
export function runGiftDiscount(input: GiftFunctionInput): GiftFunctionResult {
  const classes = input.discount?.discountClasses;
  if (Array.isArray(classes) && !classes.includes('PRODUCT')) return NO_DISCOUNT;
  const config = readConfig(input);
  const lines = input.cart?.lines;
  if (config === undefined || !Array.isArray(lines) || lines.length === 0) return NO_DISCOUNT;

  // The discount's message in the buyer's language (options.discountTitleTranslations).
  const rules = ruleBook(config, buyerLocale(input.localization?.language?.isoCode));
  const claims: Array<Rule | undefined> = [];
  // The lines whose claim holds, by index in cart order: the only ones discounted.
  const claimed: number[] = [];
  let exclusiveClaim = false;
  for (const line of lines) {
    // Most lines claim nothing: one property read decides it.
    const claim = line.ruleId == null ? undefined : claimedRule(line, rules);
    claims.push(claim);
    if (claim === undefined) continue;
    claimed.push(claims.length - 1);
    if (claim.exclusive) exclusiveClaim = true;
  }
  if (claimed.length === 0) return NO_DISCOUNT;

  const stacking: Stacking = config.k?.t === 1 ? 'highest_tier' : 'all';
  // The trees this cart evaluates: the claimed rules', or every rule's when stacking can
  // suppress. A line's gids are keyed, and its collections read, only when one compares them.
  const canSuppress = stackingCanSuppress(config, stacking, exclusiveClaim);
  const evaluated = canSuppress ? rules.all() : claims;
  const trees: unknown[] = [];
  for (const rule of evaluated) if (rule !== undefined) trees.push(rule.tree);
  const needs = treeNeeds(trees);
  const currency = String(lines[0]?.cost.amountPerQuantity.currencyCode ?? '').toUpperCase();
  const buyer = input.cart.buyerIdentity;
  // No market handle: rules that need one are not in the configuration (compact-config.ts).
  const country = input.localization?.country?.isoCode;
  // The cart without its lines: each non-gift line is tallied below (tallyLine), with the ids
  // keyed as it reads them, never turned into a CartLine unless a tree walks lines (needs.lines).
  const prepared = prepareContext(
    {
      cart: { currency, lines: [] },
      customer:
        buyer?.customer != null
          ? { loggedIn: buyer.isAuthenticated === true, tags: (buyer.customer.hasTags ?? []).filter((t) => t.hasTag).map((t) => t.tag) }
          : null,
      market: country !== undefined ? { handle: '', country } : null,
    },
    { baseCurrency: config.c },
  );
  // Each non-gift line tallied into it once (tally-lines.ts), its memberships opened after.
  const { collections, nonGiftSubtotal } = tallyInputLines(lines, claims, needs, prepared, 10 ** minorUnitExponent(currency));
  prepared.collections = openCollectionMap(collections);
  const minimum = config.k?.n;
  // As the validation guard: compared only when the cart is in the base currency.
  if (minimum !== undefined && currency === config.c && nonGiftSubtotal < minimum) return NO_DISCOUNT;
  const rate = Number(input.presentmentCurrencyRate ?? 1);
  const redemptions = readRedemptions(input);
  // A limited rule over its limit (or for an unknown buyer) is as a rule whose conditions did not match.
  const matches = (rule: Rule) =>
    (rule.matched ??=
      compileConditionProgram(decodeTree(rule.tree)).run(prepared).matched &&
      (rule.maxPerCustomer === undefined || customerLimit(rule.maxPerCustomer, redemptions, rules.keyOf.get(rule) ?? '').reason === LIMIT_REASON.below));
  const suppressed = canSuppress ? suppressedRules(rules, claims, stacking, matches) : new Set<Rule>();

  const allowance = new Map<Rule, { variant: string; remaining: number }>();
  const experimentWinner = new Map<number, Rule>();
  const candidates = new Map<Rule, GiftDiscountCandidate>();
  for (const index of claimed) {
    const line = lines[index];
    const rule = claims[index];
    if (line === undefined || rule === undefined) continue;
    if (config.k?.s === 1 && toMinorUnits(line.cost.amountPerQuantity.amount, currency) === 0) continue;
    if (!matches(rule) || suppressed.has(rule)) continue;
    if (rule.experiment !== undefined) {
      const winner = experimentWinner.get(rule.experiment) ?? rule;
      experimentWinner.set(rule.experiment, winner);
      if (winner !== rule) continue;
    }
    const variant = String(variantKeyOf(line));
    const sets = rule.per === undefined ? 1 : giftSets(rule.per, prepared).sets;
    const state = allowance.get(rule) ?? { variant, remaining: (rule.gifts.get(variant) ?? 0) * sets };
    allowance.set(rule, state);
    if (state.variant !== variant) continue;
    const quantity = Math.min(Number.isSafeInteger(line.quantity) ? line.quantity : 0, state.remaining);
    if (quantity <= 0) continue;
    const value = discountValue(rule, currency, config, rate);
    if (value === undefined) continue;
    state.remaining -= quantity;
    const target = { cartLine: { id: line.id, quantity } };
    const existing = candidates.get(rule);
    if (existing === undefined) candidates.set(rule, { targets: [target], value, message: rule.title });
    else existing.targets.push(target);
  }
  // Merged per discount, and within the platform's output limit (fit-output.ts).
  return fitOutput(candidates, () => rules.all());
}
