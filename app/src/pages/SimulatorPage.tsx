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
 */
import { Badge, Banner, BlockStack, Box, Button, Card, Checkbox, FormLayout, InlineStack, Page, Select, Text, TextField } from '@shopify/polaris';
import { useCallback, useEffect, useState } from 'react';
import { api, errorText } from '../api/client.ts';
import type { CampaignListItem, SimulateResult } from '../api/client.ts';
import { Empty } from '../Empty.tsx';
import { useCatalogNames, useRuleNames } from '../names.ts';
import { reasonSentence, toMinorUnits } from '../words.ts';
import { GiftPicker } from './GiftPicker.tsx';
import { TRACE_CSS, TraceTree } from './SimulatorTrace.tsx';

type Line = { key: number; productId: string; variantId: string; quantity: string; price: string };
type Scope = 'live' | 'all' | string;
type Problem = { text: string; path?: string };

let nextLineKey = 1;
const newLine = (): Line => ({ key: nextLineKey++, productId: '', variantId: '', quantity: '1', price: '' });

/** "a, b ,c" → ["a", "b", "c"] */
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

export function SimulatorPage() {
  const [campaigns, setCampaigns] = useState<CampaignListItem[] | undefined>();
  const [scope, setScope] = useState<Scope>('live');
  const [lines, setLines] = useState<Line[]>(() => [newLine()]);
  const [currency, setCurrency] = useState('');
  const [market, setMarket] = useState('');
  const [country, setCountry] = useState('');
  const [loggedIn, setLoggedIn] = useState(false);
  const [customerId, setCustomerId] = useState('');
  const [tags, setTags] = useState('');
  const [codes, setCodes] = useState('');
  const [redemptions, setRedemptions] = useState('');
  const [running, setRunning] = useState(false);
  const [problem, setProblem] = useState<Problem | undefined>();
  const [result, setResult] = useState<SimulateResult | undefined>();
  /** The lines as sent, so a `remove` operation's line id names the product that was in it. */
  const [sentLines, setSentLines] = useState<Line[]>([]);
  const names = useCatalogNames();
  // A chosen campaign's rules are named before a run, so what-if redemptions can name them.
  const ruleName = useRuleNames([...(result?.results.map((item) => item.campaignId) ?? []), ...(scope === 'live' || scope === 'all' ? [] : [scope])]);

  useEffect(() => {
    void api.GET('/app/api/v1/campaigns').then(({ data }) => setCampaigns(data?.campaigns ?? []));
    void api.GET('/app/api/v1/session').then(({ data }) => {
      if (data) setCurrency((current) => current || data.shop.currency);
    });
  }, []);

  const setLine = (key: number, field: keyof Omit<Line, 'key'>, value: string) =>
    setLines((current) => current.map((line) => (line.key === key ? { ...line, [field]: value } : line)));

  const run = useCallback(async () => {
    setProblem(undefined);
    const cartCurrency = currency.trim().toUpperCase();
    const prices = lines.map((line) => toMinorUnits(line.price, cartCurrency));
    const unpriced = prices.findIndex((price) => price === undefined);
    if (unpriced >= 0) {
      setResult(undefined);
      setProblem({ text: `Enter the unit price in ${cartCurrency || 'the cart currency'}, e.g. 25.00`, path: `cart.lines.${unpriced}.price` });
      return;
    }
    setRunning(true);
    const context = {
      cart: {
        currency: cartCurrency,
        lines: lines.map((line, index) => ({
          id: `line-${index + 1}`,
          productId: line.productId.trim(),
          variantId: line.variantId.trim(),
          quantity: Number(line.quantity),
          price: prices[index] ?? 0,
        })),
        discountCodes: list(codes),
      },
      customer: { loggedIn, tags: list(tags), ...(customerId.trim() ? { id: customerId.trim() } : {}) },
      ...(market.trim() || country.trim() ? { market: { handle: market.trim(), country: country.trim().toUpperCase() } } : {}),
    };
    const answer =
      scope === 'live'
        ? await api.POST('/app/api/v1/evaluate', { body: context })
        : await api.POST('/app/api/v1/simulate', {
            body: { context, ...(scope === 'all' ? {} : { campaignId: scope }), ...(parseRedemptions(redemptions, ruleName.idOf) ? { redemptions: parseRedemptions(redemptions, ruleName.idOf) } : {}) },
          });
    setRunning(false);
    if (answer.data) {
      setResult(answer.data);
      setSentLines(lines);
    } else {
      setResult(undefined);
      setProblem({ text: issueText(answer.error), path: pathOf(answer.error) });
    }
  }, [scope, lines, currency, market, country, loggedIn, customerId, tags, codes, redemptions, ruleName]);

  /** The server's message at the field its `path` names (the cart or, for the simulate route, context.cart). */
  const fieldError = (...names: string[]): string | undefined => {
    const path = problem?.path?.replace(/^context\./, '');
    return path !== undefined && names.includes(path) ? problem?.text : undefined;
  };
  const lineError = (index: number, field: string) => fieldError(`cart.lines.${index}.${field}`);

  const nameOf = (campaignId: string) => campaigns?.find((item) => item.id === campaignId)?.name ?? campaignId;
  const ruleText = (ruleId: string) => ruleName(ruleId) ?? 'a rule';
  const variantText = (variantId: string) => names.variant(variantId) ?? variantId;
  const lineText = (lineId: string) => {
    const index = Number(/^line-(\d+)$/.exec(lineId)?.[1]) - 1;
    const line = sentLines[index];
    return line ? `line ${index + 1} (${names.variant(line.variantId) ?? names.product(line.productId) ?? line.variantId})` : `line ${lineId}`;
  };
  const scopeOptions = [
    { label: 'Live rules (what the storefront gets now)', value: 'live' },
    { label: 'Every campaign, drafts included', value: 'all' },
    ...(campaigns ?? []).map((item) => ({ label: `Campaign: ${item.name}`, value: item.id })),
  ];

  return (
    <Page title="Simulator" subtitle="Try a cart against your campaigns and see why each rule gives a gift or not">
      <style>{TRACE_CSS}</style>
      <BlockStack gap="400">
        <Card>
          <form
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              void run();
            }}
          >
            <BlockStack gap="400">
              <Select label="Evaluate with" options={scopeOptions} value={scope} onChange={setScope} helpText={campaigns === undefined ? 'Loading campaigns…' : undefined} />
              <Text as="h2" variant="headingMd">
                Cart
              </Text>
              {lines.map((line, index) => (
                <Box key={line.key} padding="300" borderWidth="025" borderColor="border" borderRadius="200">
                  <BlockStack gap="200">
                    <Text as="h3" variant="headingSm">
                      {`Line ${index + 1}${names.variant(line.variantId) ?? names.product(line.productId) ? `: ${names.variant(line.variantId) ?? names.product(line.productId)}` : ''}`}
                    </Text>
                    <GiftPicker
                      label={`line ${index + 1}`}
                      onPick={({ productId, variantId }) =>
                        setLines((current) => current.map((candidate) => (candidate.key === line.key ? { ...candidate, productId, variantId } : candidate)))
                      }
                    />
                    <FormLayout>
                      <FormLayout.Group condensed>
                        <TextField label={`Product ID, line ${index + 1}`} value={line.productId} onChange={(value) => setLine(line.key, 'productId', value)} autoComplete="off" placeholder="gid://shopify/Product/1" error={lineError(index, 'productId')} />
                        <TextField label={`Variant ID, line ${index + 1}`} value={line.variantId} onChange={(value) => setLine(line.key, 'variantId', value)} autoComplete="off" placeholder="gid://shopify/ProductVariant/1" error={lineError(index, 'variantId')} />
                      </FormLayout.Group>
                      <FormLayout.Group condensed>
                        <TextField label={`Quantity, line ${index + 1}`} type="number" min={0} value={line.quantity} onChange={(value) => setLine(line.key, 'quantity', value)} autoComplete="off" error={lineError(index, 'quantity')} />
                        <TextField label={`Unit price, line ${index + 1}`} inputMode="decimal" value={line.price} onChange={(value) => setLine(line.key, 'price', value)} autoComplete="off" suffix={currency.trim().toUpperCase()} placeholder="25.00" error={lineError(index, 'price')} />
                      </FormLayout.Group>
                    </FormLayout>
                    {lines.length > 1 && (
                      <InlineStack>
                        <Button tone="critical" variant="plain" onClick={() => setLines((current) => current.filter((item) => item.key !== line.key))}>
                          {`Remove line ${index + 1}`}
                        </Button>
                      </InlineStack>
                    )}
                  </BlockStack>
                </Box>
              ))}
              <InlineStack>
                <Button onClick={() => setLines((current) => [...current, newLine()])}>Add a line</Button>
              </InlineStack>
              <FormLayout>
                <FormLayout.Group condensed>
                  <TextField label="Currency" value={currency} onChange={setCurrency} autoComplete="off" maxLength={3} helpText="ISO code, e.g. USD" error={fieldError('cart.currency')} />
                  <TextField label="Discount codes" value={codes} onChange={setCodes} autoComplete="off" helpText="Separated by commas" error={fieldError('cart.discountCodes')} />
                </FormLayout.Group>
                <FormLayout.Group condensed>
                  <TextField label="Market handle" value={market} onChange={setMarket} autoComplete="off" placeholder="e.g. eu" error={fieldError('market.handle', 'market')} />
                  <TextField label="Country" value={country} onChange={setCountry} autoComplete="off" maxLength={2} placeholder="e.g. DE" error={fieldError('market.country')} />
                </FormLayout.Group>
              </FormLayout>
              <Text as="h2" variant="headingMd">
                Customer
              </Text>
              <FormLayout>
                <Checkbox label="Logged in" checked={loggedIn} onChange={setLoggedIn} />
                <FormLayout.Group condensed>
                  <TextField label="Customer ID" value={customerId} onChange={setCustomerId} autoComplete="off" placeholder="gid://shopify/Customer/1" error={fieldError('customer.id')} />
                  <TextField label="Customer tags" value={tags} onChange={setTags} autoComplete="off" helpText="Separated by commas" error={fieldError('customer.tags')} />
                </FormLayout.Group>
                {scope !== 'live' && (
                  <TextField
                    label="Redemptions to try"
                    value={redemptions}
                    onChange={setRedemptions}
                    multiline={2}
                    autoComplete="off"
                    helpText="Limits per customer: one per line, rule name=orders so far (e.g. Once each=1). Empty uses the customer's real redemptions"
                    error={problem?.path?.startsWith('redemptions') ? problem.text : undefined}
                  />
                )}
              </FormLayout>
              {problem && (
                <Banner tone="critical" title="The cart could not be simulated">
                  <p>
                    {problem.text}
                    {problem.path ? ` (${problem.path})` : ''}
                  </p>
                </Banner>
              )}
              <InlineStack>
                <Button submit variant="primary" loading={running}>
                  Simulate
                </Button>
              </InlineStack>
            </BlockStack>
          </form>
        </Card>

        <div role="status" aria-live="polite">
          {result && (
            <BlockStack gap="400">
              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    Operations
                  </Text>
                  {result.operations.length === 0 ? (
                    <Text as="p" tone="subdued">
                      Nothing to change: the cart already is what the rules call for.
                    </Text>
                  ) : (
                    <ul className="gcrs-trace" aria-label="Operations">
                      {result.operations.map((operation, index) => (
                        // Operations carry no id; their order is the one to apply them in.
                        <li key={index} className="gcrs-trace-row">
                          {operation.type === 'add' && (
                            <>
                              <Badge tone="success">Add</Badge>
                              <span>
                                {operation.quantity} × {variantText(operation.variantId)}
                                {operation.sets !== undefined ? ` (${operation.sets} sets)` : ''}
                              </span>
                            </>
                          )}
                          {operation.type === 'remove' && (
                            <>
                              <Badge tone="critical">Remove</Badge>
                              <span>
                                {lineText(operation.lineId)}: its gift of “{ruleText(operation.ruleId)}” no longer applies
                              </span>
                            </>
                          )}
                          {operation.type === 'update' && (
                            <>
                              <Badge tone="attention">Set quantity</Badge>
                              <span>
                                line <code>{operation.lineId}</code> back to {operation.quantity} (rule {operation.ruleId} locks its quantity)
                              </span>
                            </>
                          )}
                          {operation.type === 'choose' && (
                            <>
                              <Badge tone="info">Choose</Badge>
                              <span>
                                one of {operation.options.map((option) => `${option.quantity} × ${variantText(option.variantId)}`).join(', ')} ({nameOf(operation.campaignId)})
                              </span>
                            </>
                          )}
                        </li>
                      ))}
                    </ul>
                  )}
                </BlockStack>
              </Card>
              {result.results.length === 0 ? (
                <Card>
                  <Empty heading="No rule to evaluate">
                    <p>{scope === 'live' ? 'No campaign is live now. Enable one, or evaluate with every campaign, drafts included.' : 'This selection has no enabled rule.'}</p>
                  </Empty>
                </Card>
              ) : (
                result.results.map((item) => (
                  <Card key={`${item.campaignId}/${item.ruleId}`}>
                    <BlockStack gap="300">
                      <InlineStack gap="200" blockAlign="center" wrap>
                        <Text as="h2" variant="headingMd">
                          {`${nameOf(item.campaignId)} — ${ruleName(item.ruleId) ?? 'rule'}`}
                        </Text>
                        <Badge tone={item.matched ? 'success' : 'critical'}>{item.matched ? 'Gives a gift' : 'No gift'}</Badge>
                      </InlineStack>
                      {item.reasons.length > 0 && (
                        <Text as="p" tone="subdued">
                          {item.reasons.map(reasonSentence).join(' ')}
                          {item.suppressedBy ? ` The rule that gives: “${ruleText(item.suppressedBy)}”.` : ''}
                        </Text>
                      )}
                      {item.repeat && (
                        <Text as="p">
                          {`Gift sets: ${item.repeat.sets} (every ${item.repeat.every} of ${item.repeat.counted} ${item.repeat.of}, at most ${item.repeat.max})`}
                        </Text>
                      )}
                      {item.limit && (
                        <Text as="p">
                          {item.limit.used === null
                            ? `Limit per customer: ${item.limit.maxPerCustomer}; the customer is not known (not logged in), so it gives nothing`
                            : `Limit per customer: ${item.limit.used} of ${item.limit.maxPerCustomer} used${item.limit.used >= item.limit.maxPerCustomer ? ', reached' : ''}`}
                        </Text>
                      )}
                      {item.trace ? (
                        <ul className="gcrs-trace" aria-label={`Trace of ${nameOf(item.campaignId)}`}>
                          <TraceTree node={item.trace} />
                        </ul>
                      ) : (
                        <Text as="p" tone="subdued">
                          The rule was skipped, so its conditions were not evaluated.
                        </Text>
                      )}
                    </BlockStack>
                  </Card>
                ))
              )}
            </BlockStack>
          )}
        </div>
      </BlockStack>
    </Page>
  );
}
