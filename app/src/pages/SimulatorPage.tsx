/**
 * Simulator: build a cart (lines by product and variant id — the mount has no catalog listing),
 * currency, market, customer and discount codes, then evaluate it with the live rules
 * (POST /evaluate, what GET /rules serves now), every campaign drafts included, or one campaign
 * (POST /simulate). The answer: per rule, the trace drawn as a tree of passed and failed nodes
 * with their reasons (expand/collapse; passed/failed said in words and a mark, not colour alone),
 * and the operations (add, remove, choose) that bring the cart to what the rules call for. A
 * rule with a limit per customer says how much of it the customer has used; the drafts' scopes
 * take what-if redemptions (otherwise the customer's stored ones apply).
 */
import { Badge, Banner, BlockStack, Box, Button, Card, Checkbox, FormLayout, InlineStack, Page, Select, Text, TextField } from '@shopify/polaris';
import { useCallback, useEffect, useId, useState } from 'react';
import { api, errorText } from '../api/client.ts';
import type { CampaignListItem, SimulateResult, TraceNode } from '../api/client.ts';
import { Empty } from '../Empty.tsx';
import { GiftPicker } from './GiftPicker.tsx';

type Line = { key: number; productId: string; variantId: string; quantity: string; price: string };
type Scope = 'live' | 'all' | string;
type Problem = { text: string; path?: string };

let nextLineKey = 1;
const newLine = (): Line => ({ key: nextLineKey++, productId: '', variantId: '', quantity: '1', price: '' });

/** "a, b ,c" → ["a", "b", "c"] */
/** `rule id=count` per line (or comma): the simulator's what-if redemptions; undefined when empty. */
const parseRedemptions = (text: string): Record<string, number> | undefined => {
  const entries = text
    .split(/[\n,]/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      const [ruleId = '', count = ''] = line.split('=').map((part) => part.trim());
      return [ruleId, count.trim() === '' ? Number.NaN : Number(count)] as const;
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

/** The trace of one node and, when it is a combinator, its children (expanded by default). */
function TraceTree({ node, label }: { node: TraceNode; label?: string }) {
  const [open, setOpen] = useState(true);
  const childrenId = useId();
  const children = node.children ?? [];
  const verdict = node.matched ? 'Passed' : 'Failed';
  return (
    <li className="gcrs-trace-node">
      <div className="gcrs-trace-row" data-matched={node.matched}>
        {children.length > 0 ? (
          <button type="button" className="gcrs-trace-toggle" aria-expanded={open} aria-controls={childrenId} onClick={() => setOpen((value) => !value)}>
            {open ? 'Collapse' : 'Expand'} {label ?? node.type}
          </button>
        ) : null}
        <span className="gcrs-trace-verdict" data-matched={node.matched}>
          <span aria-hidden="true">{node.matched ? '✓' : '✗'}</span> {verdict}
        </span>
        <code>{node.type}</code>
        {node.reasons.length > 0 && <span className="gcrs-trace-reasons">{node.reasons.join(', ')}</span>}
        {node.truncated && <span className="gcrs-trace-reasons">(trace truncated)</span>}
      </div>
      {children.length > 0 && (
        <ul id={childrenId} hidden={!open} className="gcrs-trace-children">
          {children.map((child, index) => (
            // Trace nodes carry no id; their position is their identity.
            <TraceTree key={index} node={child} label={`${child.type} (${index + 1} of ${children.length} under ${node.type})`} />
          ))}
        </ul>
      )}
    </li>
  );
}

const TRACE_CSS = `.gcrs-trace,.gcrs-trace-children{list-style:none;margin:0;padding-left:0}
.gcrs-trace-children{padding-left:1.25rem;border-left:2px solid var(--p-color-border);margin-left:.5rem}
.gcrs-trace-row{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;padding:.25rem 0}
.gcrs-trace-verdict{font-weight:650;padding:0 .4rem;border-radius:.4rem}
.gcrs-trace-verdict[data-matched=true]{background:var(--p-color-bg-fill-success-secondary);color:var(--p-color-text-success)}
.gcrs-trace-verdict[data-matched=false]{background:var(--p-color-bg-fill-critical-secondary);color:var(--p-color-text-critical)}
.gcrs-trace-reasons{color:var(--p-color-text-secondary);overflow-wrap:anywhere}
.gcrs-trace-toggle{font:inherit;font-size:.8rem;border:1px solid var(--p-color-border);background:var(--p-color-bg-surface);border-radius:.4rem;padding:.1rem .4rem;cursor:pointer}
.gcrs-trace-toggle:focus-visible{outline:2px solid var(--p-color-border-focus);outline-offset:1px}
.gcrs-trace code{overflow-wrap:anywhere}`;

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

  useEffect(() => {
    void api.GET('/app/api/v1/campaigns').then(({ data }) => setCampaigns(data?.campaigns ?? []));
    void api.GET('/app/api/v1/session').then(({ data }) => {
      if (data) setCurrency((current) => current || data.shop.currency);
    });
  }, []);

  const setLine = (key: number, field: keyof Omit<Line, 'key'>, value: string) =>
    setLines((current) => current.map((line) => (line.key === key ? { ...line, [field]: value } : line)));

  const run = useCallback(async () => {
    setRunning(true);
    setProblem(undefined);
    const context = {
      cart: {
        currency: currency.trim().toUpperCase(),
        lines: lines.map((line, index) => ({
          id: `line-${index + 1}`,
          productId: line.productId.trim(),
          variantId: line.variantId.trim(),
          quantity: Number(line.quantity),
          price: Number(line.price),
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
            body: { context, ...(scope === 'all' ? {} : { campaignId: scope }), ...(parseRedemptions(redemptions) ? { redemptions: parseRedemptions(redemptions) } : {}) },
          });
    setRunning(false);
    if (answer.data) setResult(answer.data);
    else {
      setResult(undefined);
      setProblem({ text: issueText(answer.error), path: pathOf(answer.error) });
    }
  }, [scope, lines, currency, market, country, loggedIn, customerId, tags, codes, redemptions]);

  /** The server's message at the field its `path` names (the cart or, for the simulate route, context.cart). */
  const fieldError = (...names: string[]): string | undefined => {
    const path = problem?.path?.replace(/^context\./, '');
    return path !== undefined && names.includes(path) ? problem?.text : undefined;
  };
  const lineError = (index: number, field: string) => fieldError(`cart.lines.${index}.${field}`);

  const nameOf = (campaignId: string) => campaigns?.find((item) => item.id === campaignId)?.name ?? campaignId;
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
                      Line {index + 1}
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
                        <TextField label={`Unit price in minor units, line ${index + 1}`} type="number" min={0} value={line.price} onChange={(value) => setLine(line.key, 'price', value)} autoComplete="off" helpText="Cents: 2500 is 25.00" error={lineError(index, 'price')} />
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
                    helpText="Limits per customer: one per line, rule id=orders so far. Empty uses the customer's real redemptions"
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
                                {operation.quantity} × <code>{operation.variantId}</code>
                                {operation.sets !== undefined ? ` (${operation.sets} sets)` : ''}
                              </span>
                            </>
                          )}
                          {operation.type === 'remove' && (
                            <>
                              <Badge tone="critical">Remove</Badge>
                              <span>
                                line <code>{operation.lineId}</code> (rule {operation.ruleId})
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
                                one of {operation.options.map((option) => `${option.quantity} × ${option.variantId}`).join(', ')} ({nameOf(operation.campaignId)})
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
                          {`${nameOf(item.campaignId)} — rule ${item.ruleId}`}
                        </Text>
                        <Badge tone={item.matched ? 'success' : 'critical'}>{item.matched ? 'Gives a gift' : 'No gift'}</Badge>
                      </InlineStack>
                      {item.reasons.length > 0 && (
                        <Text as="p" tone="subdued">
                          Why: {item.reasons.join(', ')}
                          {item.suppressedBy ? ` (by rule ${item.suppressedBy})` : ''}
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
