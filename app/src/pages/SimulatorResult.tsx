/**
 * The simulator's answer (the view of app/src/pages/SimulatorPage.tsx): the operations that bring
 * the cart to what the rules call for, then per rule whether it gives a gift, why, its repeat and
 * per-customer limit, and its trace as a tree of passed and failed nodes.
 */
import { Badge, BlockStack, Card, InlineStack, Text } from '@shopify/polaris';
import type { CampaignListItem, SimulateResult } from '../api/client.ts';
import { Empty } from '../Empty.tsx';
import type { CatalogNames, RuleNames } from '../names.ts';
import { reasonSentence } from '../words.ts';
import type { Line, Scope } from './SimulatorCartForm.tsx';
import { TraceTree } from './SimulatorTrace.tsx';

type Props = {
  result: SimulateResult | undefined;
  scope: Scope;
  campaigns: readonly CampaignListItem[];
  names: CatalogNames;
  ruleName: RuleNames;
  /** The lines as sent, so a `remove` operation's line id names the product that was in it. */
  sentLines: readonly Line[];
};

export function SimulatorResult({ result, scope, campaigns, names, ruleName, sentLines }: Props) {
  const nameOf = (campaignId: string) => campaigns.find((item) => item.id === campaignId)?.name ?? campaignId;
  const ruleText = (ruleId: string) => ruleName(ruleId) ?? 'a rule';
  const variantText = (variantId: string) => names.variant(variantId) ?? variantId;
  const lineText = (lineId: string) => {
    const index = Number(/^line-(\d+)$/.exec(lineId)?.[1]) - 1;
    const line = sentLines[index];
    return line ? `line ${index + 1} (${names.variant(line.variantId) ?? names.product(line.productId) ?? line.variantId})` : `line ${lineId}`;
  };

  return (
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
  );
}
