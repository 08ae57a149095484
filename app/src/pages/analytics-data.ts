/**
 * The analytics screen's data: the range (dates in the shop's time zone), loading the API's
 * answer with campaign names, and the tables the view shows — campaignStats summed per campaign
 * with the campaign's funnel, ruleStats per rule with names — and the CSV texts of each. No JSX:
 * AnalyticsPage.tsx shows what this computes.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, errorText } from '../api/client.ts';
import type { paths } from '../api/schema.d.ts';
import { loadAllCampaigns } from '../all-campaigns.ts';
import { toCsv } from '../csv.ts';

export type Analytics = paths['/app/api/v1/analytics']['get']['responses'][200]['content']['application/json'];
export type Range = { from: string; to: string };
type FieldError = { field: 'from' | 'to'; text: string };

export const MAX_RANGE_DAYS = 90;
const DAY_MS = 86_400_000;

/** Today in the shop's time zone, as YYYY-MM-DD. */
export function todayIn(timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
}
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}
export function dayCount({ from, to }: Range): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/** Only a missing date is caught here; the range (order, at most 90 days) is the server's to judge, and its 400 shows at its field. */
export function rangeProblem(range: Range): FieldError | undefined {
  if (!range.from) return { field: 'from', text: 'Enter the first day' };
  if (!range.to) return { field: 'to', text: 'Enter the last day' };
  return undefined;
}

/** The funnel's steps: gifts shown (a choice offered, or an automatic gift added), gifts added to carts, orders that carried the gift. */
export type Funnel = { shown: number; added: number; ordered: number };

export type CampaignRow = Funnel & { campaignId: string; name: string; giftsGiven: number; revenueWithGifts: number; giftsRefunded: number; giftsRepaired: number };

const campaignName = (names: ReadonlyMap<string, string>, campaignId: string) => names.get(campaignId) ?? `Deleted campaign (${campaignId})`;

/**
 * campaignStats summed per campaign over the range, with the funnel of its rules (shown and
 * added from ruleStats; ordered is the campaign's own orders with gifts: an order with gifts of
 * two rules is one order of the campaign), most orders with gifts first.
 */
export function perCampaign(data: Pick<Analytics, 'campaignStats' | 'ruleStats'>, names: ReadonlyMap<string, string>, digits: number): CampaignRow[] {
  const rows = new Map<string, CampaignRow>();
  const rowOf = (campaignId: string) => {
    const row = rows.get(campaignId) ?? { campaignId, name: campaignName(names, campaignId), shown: 0, added: 0, ordered: 0, giftsGiven: 0, revenueWithGifts: 0, giftsRefunded: 0, giftsRepaired: 0 };
    rows.set(campaignId, row);
    return row;
  };
  for (const stat of data.campaignStats) {
    const row = rowOf(stat.campaignId);
    row.ordered += stat.ordersWithGifts;
    row.giftsGiven += stat.giftsGiven;
    row.giftsRefunded += stat.giftsRefunded;
    // Summed in minor units so 0.1 + 0.2 stays 0.3.
    row.revenueWithGifts = Math.round((row.revenueWithGifts + stat.revenueWithGifts) * 10 ** digits) / 10 ** digits;
  }
  for (const stat of data.ruleStats) {
    const row = rowOf(stat.campaignId);
    row.shown += stat.offersShown;
    row.added += stat.giftsAdded;
    row.giftsRepaired += stat.giftsRepaired;
  }
  return [...rows.values()].sort((a, b) => b.ordered - a.ordered || b.added - a.added || a.name.localeCompare(b.name));
}

export type RuleRow = Funnel & { ruleId: string; campaignId: string; name: string; kind: string; removed: number; repaired: number };

/** How the rule gives its gift, in words; a deleted rule's is unknown. */
const KIND_TEXT = { auto_add: 'Added automatically', customer_choice: 'Shopper chooses' } as const;

/** ruleStats as the rule table shows them: "Campaign › Rule" (a deleted rule by its id), busiest first. */
export function perRule(ruleStats: Analytics['ruleStats'], campaignNames: ReadonlyMap<string, string>, ruleName: (ruleId: string) => string | undefined): RuleRow[] {
  return ruleStats
    .map((stat) => ({
      ruleId: stat.ruleId,
      campaignId: stat.campaignId,
      name: `${campaignName(campaignNames, stat.campaignId)} › ${ruleName(stat.ruleId) ?? `Deleted rule (${stat.ruleId})`}`,
      kind: stat.actionType === null ? 'Unknown (deleted)' : KIND_TEXT[stat.actionType],
      shown: stat.offersShown,
      added: stat.giftsAdded,
      removed: stat.giftsRemoved,
      ordered: stat.ordersWithGifts,
      repaired: stat.giftsRepaired,
    }))
    .sort((a, b) => b.ordered - a.ordered || b.added - a.added || a.name.localeCompare(b.name));
}

/** The whole shop's funnel: every rule's events, and the orders with gifts of the range. */
export const shopFunnel = (data: Analytics): Funnel => ({
  shown: data.ruleStats.reduce((sum, stat) => sum + stat.offersShown, 0),
  added: data.ruleStats.reduce((sum, stat) => sum + stat.giftsAdded, 0),
  ordered: data.summary.ordersWithGifts,
});

/** The CSV downloads, built from the same answer the screen shows. */
export const csvOf = {
  daily: (data: Analytics, currency: string) =>
    toCsv(
      ['date', 'orders', `revenue (${currency})`, 'orders with gifts', `revenue with gifts (${currency})`, 'gift orders refunded'],
      data.dailyTotals.map((day) => [day.date, day.totalOrders, day.totalRevenue, day.ordersWithGifts, day.revenueWithGifts, day.ordersWithGiftsRefunded]),
    ),
  campaigns: (rows: readonly CampaignRow[], currency: string) =>
    toCsv(
      ['campaign id', 'campaign', 'gifts shown', 'gifts added', 'orders with gifts', 'gifts given', `revenue with gifts (${currency})`, 'gifts refunded', 'gifts repaired'],
      rows.map((row) => [row.campaignId, row.name, row.shown, row.added, row.ordered, row.giftsGiven, row.revenueWithGifts, row.giftsRefunded, row.giftsRepaired]),
    ),
  rules: (rows: readonly RuleRow[]) =>
    toCsv(
      ['campaign id', 'rule id', 'rule', 'gift given', 'gifts shown', 'gifts added', 'gifts removed', 'orders with gifts', 'gifts repaired'],
      rows.map((row) => [row.campaignId, row.ruleId, row.name, row.kind, row.shown, row.added, row.removed, row.ordered, row.repaired]),
    ),
};

/** A download of `text`, through an object URL released when the text changes. */
export function useDownload(text: string | undefined): string | undefined {
  const [url, setUrl] = useState<string | undefined>();
  useEffect(() => {
    if (text === undefined) return setUrl(undefined);
    const next = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [text]);
  return url;
}

/**
 * The answer for a range, loaded once for the first range and again on `load`; a 400 naming
 * `from` or `to` becomes that field's error, anything else the screen's.
 */
export function useAnalytics(first: Range) {
  const [range, setRange] = useState<Range>(first);
  const [data, setData] = useState<Analytics | undefined>();
  const [names, setNames] = useState<ReadonlyMap<string, string>>(new Map());
  const [loading, setLoading] = useState(true);
  const [loadError, setLoadError] = useState<string | undefined>();
  const [fieldError, setFieldError] = useState<FieldError | undefined>();

  const load = useCallback(async (wanted: Range) => {
    setLoading(true);
    setLoadError(undefined);
    const [answer, campaigns] = await Promise.all([api.GET('/app/api/v1/analytics', { params: { query: wanted } }), loadAllCampaigns().catch(() => undefined)]);
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
  const initial = useRef(first);
  useEffect(() => {
    void load(initial.current);
  }, [load]);

  /** Loads `draft` unless a date is missing (then says so at its field). */
  const show = useCallback(
    (draft: Range) => {
      const problem = rangeProblem(draft);
      setFieldError(problem);
      if (!problem) void load(draft);
    },
    [load],
  );
  return { range, data, names, loading, loadError, fieldError, load, show };
}
