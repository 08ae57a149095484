/**
 * Simulator: build a cart (lines by product and variant id — the mount has no catalog listing),
 * currency, market, customer and discount codes, then evaluate it with the live rules
 * (POST /evaluate, what GET /rules serves now), every campaign drafts included, or one campaign
 * (POST /simulate). Products and rules are named by their titles and names (app/src/names.ts),
 * prices typed in the cart currency's major units, reasons said as sentences (app/src/words.ts).
 * The answer: per rule, the trace drawn as a tree of passed and failed nodes
 * with their reasons (expand/collapse; passed/failed said in words and a mark, not colour alone),
 * and the operations (add, remove, choose) that bring the cart to what the rules call for. A
 * rule with a limit per customer says how much of it the customer has used; the drafts' scopes
 * take what-if redemptions (otherwise the customer's stored ones apply).
 *
 * This file is the data: the route's loader (the campaigns to choose from), the form's state and
 * the run; the views are SimulatorCartForm.tsx and SimulatorResult.tsx.
 */
import { BlockStack, Page } from '@shopify/polaris';
import { useCallback, useState } from 'react';
import { api, errorText } from '../api/client.ts';
import type { SimulateResult } from '../api/client.ts';
import { useCatalogNames, useRuleNames } from '../names.ts';
import { useSignedIn } from '../session.ts';
import { useLoaded } from '../useLoaded.ts';
import { toMinorUnits } from '../words.ts';
import { SimulatorCartForm, newLine } from './SimulatorCartForm.tsx';
import type { Line, Problem, SimulatorForm } from './SimulatorCartForm.tsx';
import { SimulatorResult } from './SimulatorResult.tsx';
import { TRACE_CSS } from './SimulatorTrace.tsx';

/** The route's loader (app/src/routes.tsx): the campaigns the scope can name. */
export const loadSimulator = () => api.GET('/app/api/v1/campaigns', { params: { query: { perPage: 100 } } });

/** `rule name=count` (or rule id) per line (or comma): the simulator's what-if redemptions; undefined when empty. */
const parseRedemptions = (text: string, idOf: (name: string) => string | undefined): Record<string, number> | undefined => {
  const entries = text
    .split(/[\n,]/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      const [ruleId = '', count = ''] = line.split('=').map((part) => part.trim());
      return [idOf(ruleId) ?? ruleId, count.trim() === '' ? Number.NaN : Number(count)] as const;
    });
  return entries.length === 0 ? undefined : Object.fromEntries(entries);
};

/** "a, b ,c" → ["a", "b", "c"] */
const list = (text: string): string[] =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');

/** The server's `issue` (what is wrong with the field) when it gives one, else its `error`. */
function issueText(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'issue' in error && typeof error.issue === 'string') return error.issue;
  return errorText(error, 'The cart could not be simulated');
}

function pathOf(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'path' in error && Array.isArray(error.path)) return error.path.join('.');
  return undefined;
}

/** The request's context: the cart as typed, prices in minor units. */
function contextOf(form: SimulatorForm, cartCurrency: string, prices: readonly (number | undefined)[]) {
  return {
    cart: {
      currency: cartCurrency,
      lines: form.lines.map((line, index) => ({
        id: `line-${index + 1}`,
        productId: line.productId.trim(),
        variantId: line.variantId.trim(),
        quantity: Number(line.quantity),
        price: prices[index] ?? 0,
      })),
      discountCodes: list(form.codes),
    },
    customer: { loggedIn: form.loggedIn, tags: list(form.tags), ...(form.customerId.trim() ? { id: form.customerId.trim() } : {}) },
    ...(form.market.trim() || form.country.trim() ? { market: { handle: form.market.trim(), country: form.country.trim().toUpperCase() } } : {}),
  };
}

export function SimulatorPage() {
  const campaigns = useLoaded<typeof loadSimulator>('The campaigns could not be loaded').value?.campaigns ?? [];
  const session = useSignedIn();
  const [form, setForm] = useState<SimulatorForm>(() => ({
    scope: 'live',
    lines: [newLine()],
    currency: session.shop.currency,
    market: '',
    country: '',
    loggedIn: false,
    customerId: '',
    tags: '',
    codes: '',
    redemptions: '',
  }));
  const [running, setRunning] = useState(false);
  const [problem, setProblem] = useState<Problem | undefined>();
  const [result, setResult] = useState<SimulateResult | undefined>();
  const [sentLines, setSentLines] = useState<Line[]>([]);
  const names = useCatalogNames();
  const { scope } = form;
  // A chosen campaign's rules are named before a run, so what-if redemptions can name them.
  const ruleName = useRuleNames([...(result?.results.map((item) => item.campaignId) ?? []), ...(scope === 'live' || scope === 'all' ? [] : [scope])]);
  const update = useCallback((patch: Partial<SimulatorForm>) => setForm((current) => ({ ...current, ...patch })), []);

  const run = useCallback(async () => {
    setProblem(undefined);
    const cartCurrency = form.currency.trim().toUpperCase();
    const prices = form.lines.map((line) => toMinorUnits(line.price, cartCurrency));
    const unpriced = prices.findIndex((price) => price === undefined);
    if (unpriced >= 0) {
      setResult(undefined);
      setProblem({ text: `Enter the unit price in ${cartCurrency || 'the cart currency'}, e.g. 25.00`, path: `cart.lines.${unpriced}.price` });
      return;
    }
    setRunning(true);
    const context = contextOf(form, cartCurrency, prices);
    const redemptions = parseRedemptions(form.redemptions, ruleName.idOf);
    const answer =
      scope === 'live'
        ? await api.POST('/app/api/v1/evaluate', { body: context })
        : await api.POST('/app/api/v1/simulate', { body: { context, ...(scope === 'all' ? {} : { campaignId: scope }), ...(redemptions ? { redemptions } : {}) } });
    setRunning(false);
    if (answer.data) {
      setResult(answer.data);
      setSentLines(form.lines);
    } else {
      setResult(undefined);
      setProblem({ text: issueText(answer.error), path: pathOf(answer.error) });
    }
  }, [form, scope, ruleName]);

  return (
    <Page title="Simulator" subtitle="Try a cart against your campaigns and see why each rule gives a gift or not">
      <style>{TRACE_CSS}</style>
      <BlockStack gap="400">
        <SimulatorCartForm form={form} update={update} campaigns={campaigns} names={names} problem={problem} running={running} onRun={() => void run()} />
        <SimulatorResult result={result} scope={scope} campaigns={campaigns} names={names} ruleName={ruleName} sentLines={sentLines} />
      </BlockStack>
    </Page>
  );
}
