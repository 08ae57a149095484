/**
 * Analytics: a date range (at most 90 days; the server's 400 shown at the field its `path`
 * names), summary figures, daily charts (orders and orders with gifts; revenue) with the same
 * figures as a table, the per-campaign table (campaignStats summed over the range, with names),
 * and CSV downloads of both tables built in the browser from the same answer. Refunds show
 * beside, on the day of the refund: an order stays on its own day (docs/events-orders-analytics.md).
 */
import { Banner, BlockStack, Box, Button, Card, FormLayout, InlineGrid, InlineStack, Page, SkeletonBodyText, Text, TextField } from '@shopify/polaris';
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api, errorText } from '../api/client.ts';
import type { paths } from '../api/schema.d.ts';
import { loadAllCampaigns } from '../all-campaigns.ts';
import { toCsv } from '../csv.ts';
import { Empty } from '../Empty.tsx';
import { FigureTable } from '../FigureTable.tsx';

Chart.register(BarController, BarElement, LineController, LineElement, PointElement, CategoryScale, LinearScale, Tooltip, Legend);

type Analytics = paths['/app/api/v1/analytics']['get']['responses'][200]['content']['application/json'];
type Range = { from: string; to: string };

const MAX_RANGE_DAYS = 90;
const DAY_MS = 86_400_000;

/** Today in the shop's time zone, as YYYY-MM-DD. */
function todayIn(timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
}
function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}
function dayCount({ from, to }: Range): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/** Only a missing date is caught here; the range (order, at most 90 days) is the server's to judge, and its 400 shows at its field. */
function rangeProblem(range: Range): { field: 'from' | 'to'; text: string } | undefined {
  if (!range.from) return { field: 'from', text: 'Enter the first day' };
  if (!range.to) return { field: 'to', text: 'Enter the last day' };
  return undefined;
}

type CampaignRow = { campaignId: string; name: string; ordersWithGifts: number; giftsGiven: number; revenueWithGifts: number; giftsRefunded: number };

/** campaignStats summed per campaign over the range, most orders with gifts first. */
function perCampaign(stats: Analytics['campaignStats'], names: ReadonlyMap<string, string>, digits: number): CampaignRow[] {
  const rows = new Map<string, CampaignRow>();
  for (const stat of stats) {
    const row = rows.get(stat.campaignId) ?? {
      campaignId: stat.campaignId,
      name: names.get(stat.campaignId) ?? `Deleted campaign (${stat.campaignId})`,
      ordersWithGifts: 0,
      giftsGiven: 0,
      revenueWithGifts: 0,
      giftsRefunded: 0,
    };
    row.ordersWithGifts += stat.ordersWithGifts;
    row.giftsGiven += stat.giftsGiven;
    row.giftsRefunded += stat.giftsRefunded;
    // Summed in minor units so 0.1 + 0.2 stays 0.3.
    row.revenueWithGifts = Math.round((row.revenueWithGifts + stat.revenueWithGifts) * 10 ** digits) / 10 ** digits;
    rows.set(stat.campaignId, row);
  }
  return [...rows.values()].sort((a, b) => b.ordersWithGifts - a.ordersWithGifts || a.name.localeCompare(b.name));
}

/** A download of `text` as `fileName`, through an object URL released when the text changes. */
function useDownload(text: string | undefined): string | undefined {
  const [url, setUrl] = useState<string | undefined>();
  useEffect(() => {
    if (text === undefined) return setUrl(undefined);
    const next = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [text]);
  return url;
}

function DailyChart({ title, description, labels, datasets, kind, tick }: {
  title: string;
  description: string;
  labels: string[];
  datasets: Array<{ label: string; data: number[]; color: string }>;
  kind: 'bar' | 'line';
  /** The y axis' labels: a count has whole ticks only (no 0.4 orders), money is in the shop's currency. */
  tick: 'count' | Intl.NumberFormat;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      type: kind,
      data: {
        labels,
        datasets: datasets.map((set) => ({ label: set.label, data: set.data, backgroundColor: set.color, borderColor: set.color, pointRadius: 2, tension: 0.2 })),
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        scales: { y: { beginAtZero: true, ticks: tick === 'count' ? { precision: 0 } : { callback: (value) => tick.format(Number(value)) } } },
        plugins: { legend: { position: 'bottom' } },
      },
    });
    // The y axis' labels, for a test to read (a canvas shows them only as pixels).
    const readTicks = () => canvas.current?.setAttribute('data-y-ticks', chart.scales.y?.ticks.map((item) => String(item.label)).join('|') ?? '');
    readTicks();
    chart.options.onResize = readTicks;
    return () => chart.destroy();
  }, [kind, labels, datasets, tick]);
  return (
    <Card>
      <BlockStack gap="200">
        <Text as="h2" variant="headingMd">
          {title}
        </Text>
        <div style={{ position: 'relative', height: 260 }}>
          <canvas ref={canvas} role="img" aria-label={`${title}. ${description} The same figures are in the daily table below.`} />
        </div>
      </BlockStack>
    </Card>
  );
}

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
  const [range, setRange] = useState<Range>(draft);
  const [data, setData] = useState<Analytics | undefined>();
  const [names, setNames] = useState<ReadonlyMap<string, string>>(new Map());
  const [loading, setLoading] = useState(true);
  const [loadError, setLoadError] = useState<string | undefined>();
  const [fieldError, setFieldError] = useState<{ field: 'from' | 'to'; text: string } | undefined>();

  const money = useMemo(() => new Intl.NumberFormat(undefined, { style: 'currency', currency }), [currency]);
  const digits = money.resolvedOptions().maximumFractionDigits ?? 2;

  const load = useCallback(async (wanted: Range) => {
    setLoading(true);
    setLoadError(undefined);
    const [answer, campaigns] = await Promise.all([
      api.GET('/app/api/v1/analytics', { params: { query: wanted } }),
      loadAllCampaigns().catch(() => undefined),
    ]);
    setLoading(false);
    if (campaigns) setNames(new Map(campaigns.map((campaign) => [campaign.id, campaign.name])));
    if (answer.data) {
      setData(answer.data);
      setRange(wanted);
      return;
    }
    const error = answer.error as { error?: string; issue?: string; path?: unknown[] } | undefined;
    const field = error?.path?.[0];
    if (answer.response.status === 400 && (field === 'from' || field === 'to')) {
      setFieldError({ field, text: error?.issue ?? errorText(error, 'Invalid date') });
    } else setLoadError(errorText(error, `The analytics could not be loaded (HTTP ${answer.response.status})`));
  }, []);
  // Only the first range loads by itself; later ones on "Show".
  const initial = useRef(range);
  useEffect(() => {
    void load(initial.current);
  }, [load]);

  const show = useCallback(() => {
    const problem = rangeProblem(draft);
    setFieldError(problem);
    if (!problem) void load(draft);
  }, [draft, load]);

  const daily = data?.dailyTotals ?? [];
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
  const campaigns = useMemo(() => perCampaign(data?.campaignStats ?? [], names, digits), [data, names, digits]);

  const dailyCsv = useMemo(
    () =>
      data &&
      toCsv(
        ['date', 'orders', `revenue (${currency})`, 'orders with gifts', `revenue with gifts (${currency})`, 'gift orders refunded'],
        data.dailyTotals.map((day) => [day.date, day.totalOrders, day.totalRevenue, day.ordersWithGifts, day.revenueWithGifts, day.ordersWithGiftsRefunded]),
      ),
    [data, currency],
  );
  const campaignCsv = useMemo(
    () =>
      data &&
      toCsv(
        ['campaign id', 'campaign', 'orders with gifts', 'gifts given', `revenue with gifts (${currency})`, 'gifts refunded'],
        campaigns.map((row) => [row.campaignId, row.name, row.ordersWithGifts, row.giftsGiven, row.revenueWithGifts, row.giftsRefunded]),
      ),
    [data, campaigns, currency],
  );
  const dailyUrl = useDownload(dailyCsv);
  const campaignUrl = useDownload(campaignCsv);
  const suffix = `${range.from}_${range.to}`;

  const orderDays = daily.filter((day) => day.totalOrders > 0).length;
  const giftOrders = daily.reduce((sum, day) => sum + day.ordersWithGifts, 0);
  const refundedOrders = daily.reduce((sum, day) => sum + day.ordersWithGiftsRefunded, 0);

  return (
    <Page title="Analytics" subtitle={`Days in the shop's time zone (${timezone}); amounts in ${currency}`}>
      <BlockStack gap="400">
        <Card>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              show();
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
            <InlineGrid columns={{ xs: 1, sm: 2, md: 4 }} gap="400">
              {[
                ['Orders', String(data.summary.totalOrders)],
                ['Gifts given', String(data.summary.totalGifts)],
                ['Gifts refunded', String(data.summary.totalGiftsRefunded)],
                ['Revenue', money.format(data.summary.totalRevenue)],
              ].map(([label, value]) => (
                <Card key={label}>
                  <BlockStack gap="100">
                    <Text as="h2" variant="headingSm" tone="subdued">
                      {label}
                    </Text>
                    <Text as="p" variant="headingLg">
                      {value}
                    </Text>
                  </BlockStack>
                </Card>
              ))}
            </InlineGrid>

            {orderDays === 0 ? (
              <Card>
                <Empty heading="No orders in this range">
                  <p>Orders appear here the day after they are paid, by the day of the shop's time zone. Try a wider range.</p>
                </Empty>
              </Card>
            ) : (
              <>
                <DailyChart
                  kind="bar"
                  tick="count"
                  title="Orders per day"
                  description={`${data.summary.totalOrders} orders, ${giftOrders} with gifts, ${refundedOrders} gift orders refunded, over ${daily.length} days.`}
                  labels={labels}
                  datasets={orderSets}
                />
                <DailyChart
                  kind="line"
                  tick={money}
                  title="Revenue per day"
                  description={`${money.format(data.summary.totalRevenue)} in total over ${daily.length} days.`}
                  labels={labels}
                  datasets={revenueSets}
                />
              </>
            )}

            <Card>
              <BlockStack gap="300">
                <InlineStack align="space-between" blockAlign="center" gap="200">
                  <Text as="h2" variant="headingMd">
                    By campaign
                  </Text>
                  {campaignUrl && (
                    <Button url={campaignUrl} download={`campaigns-${suffix}.csv`}>
                      Download campaigns CSV
                    </Button>
                  )}
                </InlineStack>
                {campaigns.length === 0 ? (
                  <Text as="p" tone="subdued">
                    No order in this range carried a gift of a campaign, and no gift was refunded.
                  </Text>
                ) : (
                  <FigureTable
                    label="Orders with gifts by campaign"
                    numeric={[false, true, true, true, true]}
                    headings={['Campaign', 'Orders with gifts', 'Gifts given', 'Revenue with gifts', 'Gifts refunded']}
                    rows={campaigns.map((row) => [row.name, row.ordersWithGifts, row.giftsGiven, money.format(row.revenueWithGifts), row.giftsRefunded])}
                  />
                )}
              </BlockStack>
            </Card>

            <Card>
              <BlockStack gap="300">
                <InlineStack align="space-between" blockAlign="center" gap="200">
                  <Text as="h2" variant="headingMd">
                    Daily figures
                  </Text>
                  {dailyUrl && (
                    <Button url={dailyUrl} download={`analytics-daily-${suffix}.csv`}>
                      Download daily CSV
                    </Button>
                  )}
                </InlineStack>
                <details>
                  <summary style={{ cursor: 'pointer' }}>Show the daily figures as a table</summary>
                  <Box paddingBlockStart="200">
                    <FigureTable
                      label="Daily figures"
                      numeric={[false, true, true, true, true, true]}
                      headings={['Date', 'Orders', 'Revenue', 'Orders with gifts', 'Revenue with gifts', 'Gift orders refunded']}
                      rows={daily.map((day) => [
                        day.date,
                        day.totalOrders,
                        money.format(day.totalRevenue),
                        day.ordersWithGifts,
                        money.format(day.revenueWithGifts),
                        day.ordersWithGiftsRefunded,
                      ])}
                    />
                  </Box>
                </details>
              </BlockStack>
            </Card>
          </>
        )}
      </BlockStack>
    </Page>
  );
}
