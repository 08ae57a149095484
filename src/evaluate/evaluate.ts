/**
 * One evaluation as CONTRACT "Evaluation" answers it: every rule's result with its full
 * trace (left out on request: `?trace=false`), and the operations that bring the cart to the
 * state the rules call for. Both POST /evaluate and the admin simulator answer with this; only
 * their rules differ.
 */
import { planCart } from '@gcrs/engine';
import type { CartPlan, CompiledRules, EvaluationContext, RedemptionCounts, RuleResult } from '@gcrs/engine';
import { JsonText, stringifyJson } from '../http/json.ts';
import { MAX_TRACE_NODES } from './limits.ts';

/** The quoted JSON of strings written before: reason codes, a few dozen constants. */
const quotedStrings = new Map<string, string>();
const MAX_QUOTED = 1000;

function quoted(text: string): string {
  let json = quotedStrings.get(text);
  if (json === undefined) {
    json = JSON.stringify(text);
    if (quotedStrings.size >= MAX_QUOTED) quotedStrings.clear();
    quotedStrings.set(text, json);
  }
  return json;
}

/**
 * Each rule's `{"ruleId":…,"campaignId":…,"matched":` by position, per compiled payload: a
 * payload is shared by every request while it is exact (live-rules.ts), and so are these.
 */
const headsOf = new WeakMap<CompiledRules, string[]>();

function headsFor(rules: CompiledRules): string[] {
  let heads = headsOf.get(rules);
  if (heads === undefined) {
    heads = rules.rules.map((rule) => resultHead(rule.id, rule.campaignId));
    headsOf.set(rules, heads);
  }
  return heads;
}

function resultHead(ruleId: string, campaignId: string): string {
  return `{"ruleId":${JSON.stringify(ruleId)},"campaignId":${JSON.stringify(campaignId)},"matched":`;
}

/**
 * The answer's JSON written from the plan, key by key in CONTRACT's order (the optional keys
 * only when set), with no intermediate objects: the bytes JSON.stringify gives for
 * `{ results: [{ ruleId, campaignId, matched, reasons, suppressedBy?, repeat?, limit?, trace? }],
 * operations }` (test/evaluate/answer-json.test.ts and body-shortcut.test.ts hold it to that).
 * With `trace`, every result has a `trace` (null for a skipped rule); without, none has.
 *
 * @example
 *   answerJson(compileRules(payload), planCart(rules, context), false); // '{"results":[…],"operations":[]}'
 */
export function answerJson(rules: CompiledRules, plan: CartPlan, trace: boolean): string {
  const heads = headsFor(rules);
  let out = '{"results":[';
  const results = plan.results;
  for (let i = 0; i < results.length; i++) {
    const result = results[i] as RuleResult;
    if (i > 0) out += ',';
    // A result is its rule's, position by position; anything else is written afresh.
    const rule = rules.rules[i];
    out += rule !== undefined && rule.id === result.ruleId && rule.campaignId === result.campaignId ? heads[i] : resultHead(result.ruleId, result.campaignId);
    out += result.matched ? 'true,"reasons":[' : 'false,"reasons":[';
    const reasons = result.reasons;
    for (let r = 0; r < reasons.length; r++) {
      if (r > 0) out += ',';
      out += quoted(reasons[r] as string);
    }
    out += ']';
    if (result.suppressedBy !== undefined) out += `,"suppressedBy":${JSON.stringify(result.suppressedBy)}`;
    if (result.repeat !== undefined) out += `,"repeat":${JSON.stringify(result.repeat)}`;
    if (result.limit !== undefined) out += `,"limit":${JSON.stringify(result.limit)}`;
    if (trace) out += `,"trace":${result.trace === undefined ? 'null' : stringifyJson(result.trace)}`;
    out += '}';
  }
  return `${out}],"operations":${stringifyJson(plan.operations)}}`;
}

/**
 * Evaluates compiled rules against one context at the instant `now` (schedule windows),
 * assigning experiment variants by the context's `visitorId`. Every result carries all of
 * CONTRACT's keys: a skipped rule (disabled, outside its window, another experiment
 * variant) has `trace: null` and its skip reason in `reasons`. With `trace: false` no trace
 * is built and results have no `trace` key; with traces, at most MAX_TRACE_NODES nodes.
 * `redemptions` are the customer's trusted counts for per-customer limits (customer-redemptions.ts).
 * The answer is its JSON text (the reply serializer writes it as it is).
 *
 * @example
 *   const answer = evaluateContext(compileRules(payload), context, new Date(), { trace: true }); // answer.text
 */
export function evaluateContext(
  rules: CompiledRules,
  context: EvaluationContext,
  now: Date,
  options: { trace: boolean; redemptions?: RedemptionCounts | undefined },
): JsonText {
  const plan = planCart(rules, context, { now, trace: options.trace, traceNodeLimit: MAX_TRACE_NODES, redemptions: options.redemptions });
  return new JsonText(answerJson(rules, plan, options.trace));
}
