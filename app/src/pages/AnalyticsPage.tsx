/**
 * Analytics: a date range (at most 90 days; the server's 400 shown at the field its `path`
 * names), summary figures, whether gifts pay (average orders with and without a gift, the gift
 * funnel per campaign and rule: AnalyticsFunnel.tsx), daily charts (orders and orders with gifts;
 * revenue) with the same figures as a table, the per-campaign table (campaignStats summed over the
 * range, with names and the funnel), and CSV downloads built in the browser from the same answer.
 * Refunds show beside, on the day of the refund: an order stays on its own day
 * (docs/events-orders-analytics.md). Data and tables: analytics-data.ts.
 */
import { minorUnitExponent } from '@gcrs/engine';
import { Banner, BlockStack, Box, Button, Card, FormLayout, InlineGrid, InlineStack, Page, SkeletonBodyText, Text, TextField } from '@shopify/polaris';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { api } from '../api/client.ts';
import { Empty } from '../Empty.tsx';
import { FigureTable } from '../FigureTable.tsx';
import { countText, formatAmount } from '../words.ts';
import { AnalyticsChart } from './AnalyticsChart.tsx';
import { AverageOrders, Figure, GiftFunnel, TableCard } from './AnalyticsFunnel.tsx';
import { addDays, csvOf, dayCount, MAX_RANGE_DAYS, perCampaign, todayIn, useAnalytics, useDownload } from './analytics-data.ts';
import type { Range } from './analytics-data.ts';

/** The shop's time zone and currency (the session's shop), then the screen. */
export function AnalyticsPage() {
  const [shop, setShop] = useState<{ timezone: string; currency: string } | 'failed' | undefined>();
  useEffect(() => {
    api
      .GET('/app/api/v1/session')
      .then(({ data }) => setShop(data ? { timezone: data.shop.timezone, currency: data.shop.currency } : 'failed'))
      .catch(() => setShop('failed'));
  }, []);
  if (shop === 'failed') {
    return (
      <Page title="Analytics">
        <Banner tone="critical" title="The shop could not be read">
          <p>Reload the page to try again.</p>
        </Banner>
      </Page>
    );
  }
  if (!shop) {
    return (
      <Page title="Analytics">
        <Card>
          <SkeletonBodyText lines={6} />
        </Card>
      </Page>
    );
  }
  return <AnalyticsScreen timezone={shop.timezone} currency={shop.currency} />;
}

function AnalyticsScreen({ timezone, currency }: { timezone: string; currency: string }) {
  const today = todayIn(timezone);
  const [draft, setDraft] = useState<Range>({ from: addDays(today, -29), to: today });
  const { range, data, names, loading, loadError, fieldError, load, show } = useAnalytics(draft);
  const money = useCallback((amount: number) => formatAmount(amount, currency), [currency]);

  const daily = useMemo(() => data?.dailyTotals ?? [], [data]);
  const labels = useMemo(() => daily.map((day) => day.date), [daily]);
  const orderSets = useMemo(
    () => [
      { label: 'Orders', data: daily.map((day) => day.totalOrders), color: '#8a8a8a' },
      { label: 'Orders with gifts', data: daily.map((day) => day.ordersWithGifts), color: '#008060' },
      { label: 'Gift orders refunded', data: daily.map((day) => day.ordersWithGiftsRefunded), color: '#c05717' },
    ],
    [daily],
  );
  const revenueSets = useMemo(
    () => [
      { label: `Revenue (${currency})`, data: daily.map((day) => day.totalRevenue), color: '#2c6ecb' },
      { label: `Revenue with gifts (${currency})`, data: daily.map((day) => day.revenueWithGifts), color: '#008060' },
    ],
    [daily, currency],
  );
  const campaigns = useMemo(() => (data ? perCampaign(data, names, minorUnitExponent(currency)) : []), [data, names, currency]);
  const dailyUrl = useDownload(useMemo(() => data && csvOf.daily(data, currency), [data, currency]));
  const campaignUrl = useDownload(useMemo(() => data && csvOf.campaigns(campaigns, currency), [data, campaigns, currency]));
  const suffix = `${range.from}_${range.to}`;

  const orderDays = daily.filter((day) => day.totalOrders > 0).length;
  const refundedOrders = daily.reduce((sum, day) => sum + day.ordersWithGiftsRefunded, 0);

  return (
    <Page title="Analytics" subtitle={`Days in the shop's time zone (${timezone}); amounts in ${currency}`}>
      <BlockStack gap="400">
        <Card>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              show(draft);
            }}
          >
            <FormLayout>
              <FormLayout.Group condensed>
                <TextField
                  label="From"
                  type="date"
                  value={draft.from}
                  onChange={(from) => setDraft((current) => ({ ...current, from }))}
                  autoComplete="off"
                  error={fieldError?.field === 'from' ? fieldError.text : undefined}
                />
                <TextField
                  label="To"
                  type="date"
                  value={draft.to}
                  onChange={(to) => setDraft((current) => ({ ...current, to }))}
                  autoComplete="off"
                  helpText={`At most ${MAX_RANGE_DAYS} days, both ends included`}
                  error={fieldError?.field === 'to' ? fieldError.text : undefined}
                />
              </FormLayout.Group>
              <InlineStack gap="200">
                <Button submit variant="primary" loading={loading}>
                  Show
                </Button>
              </InlineStack>
            </FormLayout>
          </form>
        </Card>

        {loadError ? (
          <Banner tone="critical" title="The analytics could not be loaded" action={{ content: 'Try again', onAction: () => void load(range) }}>
            <p>{loadError}</p>
          </Banner>
        ) : !data ? (
          <Card>
            <SkeletonBodyText lines={6} />
          </Card>
        ) : (
          <>
            <Box paddingInline={{ xs: '400', sm: '0' }}>
              <Text as="p" tone="subdued">
                {range.from} to {range.to} ({dayCount(range)} days)
              </Text>
            </Box>
            <InlineGrid columns={{ xs: 2, md: 5 }} gap={{ xs: '200', sm: '400' }}>
              <Figure label="Orders" value={data.summary.totalOrders.toLocaleString('en-US')} />
              <Figure label="Revenue" value={money(data.summary.totalRevenue)} />
              <Figure label="Gifts given" value={data.summary.totalGifts.toLocaleString('en-US')} />
              <Figure label="Gifts refunded" value={data.summary.totalGiftsRefunded.toLocaleString('en-US')} />
              <Figure label="Gifts repaired" value={data.summary.totalGiftsRepaired.toLocaleString('en-US')} />
            </InlineGrid>

            {orderDays === 0 ? (
              <Card>
                <Empty heading="No orders in this range">
                  <p>Orders appear here the day after they are paid, by the day of the shop's time zone. Try a wider range.</p>
                </Empty>
              </Card>
            ) : (
              <AverageOrders summary={data.summary} currency={currency} />
            )}
            <GiftFunnel data={data} campaigns={campaigns} campaignNames={names} suffix={suffix} />
            {orderDays > 0 && (
              <>
                <AnalyticsChart
                  kind="bar"
                  tick="count"
                  title="Orders per day"
                  description={`${countText(data.summary.totalOrders, 'order')}, ${data.summary.ordersWithGifts} with gifts, ${countText(refundedOrders, 'gift order')} refunded, over ${countText(daily.length, 'day')}.`}
                  labels={labels}
                  datasets={orderSets}
                  tableName="daily table"
                />
                <AnalyticsChart
                  kind="line"
                  tick={money}
                  title="Revenue per day"
                  description={`${money(data.summary.totalRevenue)} in total over ${countText(daily.length, 'day')}.`}
                  labels={labels}
                  datasets={revenueSets}
                  tableName="daily table"
                />
              </>
            )}

            <TableCard title="By campaign" download={{ url: campaignUrl, file: `campaigns-${suffix}.csv`, label: 'Download campaigns CSV' }}>
              <Text as="p" tone="subdued">
                Gifts shown (a choice offered, or an automatic gift added) and gifts added to carts, orders with a gift of the campaign, its gift units, their orders' revenue, and gifts refunded or repaired.
              </Text>
              {campaigns.length === 0 ? (
                <Text as="p" tone="subdued">
                  No order in this range carried a gift of a campaign, and no gift was shown, added or refunded.
                </Text>
              ) : (
                <FigureTable
                  label="Gifts by campaign"
                  numeric={[false, true, true, true, true, true, true, true]}
                  headings={['Campaign', 'Shown', 'Added', 'Orders', 'Gifts given', 'Revenue', 'Refunded', 'Repaired']}
                  rows={campaigns.map((row) => [row.name, row.shown, row.added, row.ordered, row.giftsGiven, money(row.revenueWithGifts), row.giftsRefunded, row.giftsRepaired])}
                />
              )}
            </TableCard>

            <TableCard title="Daily figures" download={{ url: dailyUrl, file: `analytics-daily-${suffix}.csv`, label: 'Download daily CSV' }}>
              <details>
                <summary style={{ cursor: 'pointer' }}>Show the daily figures as a table</summary>
                <Box paddingBlockStart="200">
                  <FigureTable
                    label="Daily figures"
                    numeric={[false, true, true, true, true, true]}
                    headings={['Date', 'Orders', 'Revenue', 'Orders with gifts', 'Revenue with gifts', 'Gift orders refunded']}
                    rows={daily.map((day) => [day.date, day.totalOrders, money(day.totalRevenue), day.ordersWithGifts, money(day.revenueWithGifts), day.ordersWithGiftsRefunded])}
                  />
                </Box>
              </details>
            </TableCard>
          </>
        )}
      </BlockStack>
    </Page>
  );
}
