/**
 * "Is it worth it" on the analytics screen (issue 23 item 11): the average order with and
 * without a gift, said as a sentence, and the gift funnel — gifts shown, gifts added, orders
 * that carried the gift — for the shop, per campaign (chart) and per rule (table and CSV).
 */
import { BlockStack, Button, Card, InlineGrid, InlineStack, Text } from '@shopify/polaris';
import { useMemo } from 'react';
import type { ReactNode } from 'react';
import { FigureTable } from '../FigureTable.tsx';
import { useRuleNames } from '../names.ts';
import { averageOrderSentence, formatAmount, funnelSentence, shareText } from '../words.ts';
import { AnalyticsChart } from './AnalyticsChart.tsx';
import { csvOf, perRule, shopFunnel, useDownload } from './analytics-data.ts';
import type { Analytics, CampaignRow } from './analytics-data.ts';

/** A labelled figure, as the summary shows them. */
export function Figure({ label, value, level = 'h2' }: { label: string; value: string; level?: 'h2' | 'h3' }) {
  return (
    <Card>
      <BlockStack gap="100">
        <Text as={level} variant="headingSm" tone="subdued">
          {label}
        </Text>
        <Text as="p" variant="headingLg">
          {value}
        </Text>
      </BlockStack>
    </Card>
  );
}

/** Average order values with and without a gift, and the sentence comparing them. */
export function AverageOrders({ summary, currency }: { summary: Analytics['summary']; currency: string }) {
  const money = (amount: number | null) => (amount === null ? 'No orders' : formatAmount(amount, currency));
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Do gifts pay?
        </Text>
        <Text as="p">{averageOrderSentence(summary.averageOrderValueWithGifts, summary.averageOrderValueWithoutGifts, currency)}</Text>
        <InlineGrid columns={{ xs: 1, sm: 2 }} gap="400">
          <Figure level="h3" label="Average order with a gift" value={money(summary.averageOrderValueWithGifts)} />
          <Figure level="h3" label="Average order without a gift" value={money(summary.averageOrderValueWithoutGifts)} />
        </InlineGrid>
      </BlockStack>
    </Card>
  );
}

/** A card with a heading, a CSV download beside it, and its content. */
export function TableCard({ title, download, children }: { title: string; download?: { url: string | undefined; file: string; label: string }; children: ReactNode }) {
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between" blockAlign="center" gap="200">
          <Text as="h2" variant="headingMd">
            {title}
          </Text>
          {download?.url && (
            <Button url={download.url} download={download.file}>
              {download.label}
            </Button>
          )}
        </InlineStack>
        {children}
      </BlockStack>
    </Card>
  );
}

const FUNNEL_COLORS = { shown: '#8a8a8a', added: '#2c6ecb', ordered: '#008060' };

/** The funnel of the shop in a sentence, per campaign in a chart, per rule in a table with its CSV. */
export function GiftFunnel({ data, campaigns, campaignNames, suffix }: { data: Analytics; campaigns: CampaignRow[]; campaignNames: ReadonlyMap<string, string>; suffix: string }) {
  const ruleName = useRuleNames(useMemo(() => data.ruleStats.map((stat) => stat.campaignId), [data]));
  const rules = perRule(data.ruleStats, campaignNames, ruleName);
  const rulesCsv = useMemo(() => csvOf.rules(rules), [rules]);
  const rulesUrl = useDownload(rulesCsv);
  const shop = shopFunnel(data);
  const charted = useMemo(() => campaigns.filter((row) => row.shown + row.added + row.ordered > 0).slice(0, 8), [campaigns]);
  const labels = useMemo(() => charted.map((row) => (row.name.length > 24 ? `${row.name.slice(0, 23)}…` : row.name)), [charted]);
  const datasets = useMemo(
    () => [
      { label: 'Gifts shown', data: charted.map((row) => row.shown), color: FUNNEL_COLORS.shown },
      { label: 'Gifts added', data: charted.map((row) => row.added), color: FUNNEL_COLORS.added },
      { label: 'Orders with the gift', data: charted.map((row) => row.ordered), color: FUNNEL_COLORS.ordered },
    ],
    [charted],
  );

  return (
    <>
      <Card>
        <BlockStack gap="300">
          <Text as="h2" variant="headingMd">
            Gift funnel
          </Text>
          <Text as="p">{funnelSentence(shop)}</Text>
          <Text as="p" tone="subdued">
            A gift is shown when the storefront offers a choice of gifts, or when it adds an automatic gift to the cart: an automatic gift is shown by being added. Each
            showing and each add counts, not each shopper.
          </Text>
        </BlockStack>
      </Card>
      {charted.length > 0 && (
        <AnalyticsChart
          kind="bar"
          tick="count"
          title="Gift funnel by campaign"
          description={charted.map((row) => `${row.name}: ${row.shown} shown, ${row.added} added, ${row.ordered} ordered.`).join(' ')}
          labels={labels}
          datasets={datasets}
          tableName="By campaign table"
        />
      )}
      <TableCard title="By rule" download={rules.length > 0 ? { url: rulesUrl, file: `rules-${suffix}.csv`, label: 'Download rules CSV' } : undefined}>
        <Text as="p" tone="subdued">
          Orders are paid orders that carried the rule's gift; repaired ones got their missing gift added after checkout.
        </Text>
        {rules.length === 0 ? (
          <Text as="p" tone="subdued">
            No gift was shown, added or ordered in this range.
          </Text>
        ) : (
          <FigureTable
            label="Gift funnel by rule"
            numeric={[false, false, true, true, true, true, true, true, true]}
            headings={['Rule', 'Gift given', 'Shown', 'Added', 'Removed', 'Orders', 'Added per showing', 'Ordered per add', 'Repaired']}
            rows={rules.map((row) => [row.name, row.kind, row.shown, row.added, row.removed, row.ordered, shareText(row.added, row.shown), shareText(row.ordered, row.added), row.repaired])}
          />
        )}
      </TableCard>
    </>
  );
}
