/**
 * An experiment's results from its raw figures (results-store.ts), pure: per variant the
 * visitors, gift adds, orders, conversion, revenue per visitor and average order value; the
 * leader on the primary metric, whether its lead is significant, and the sample size still
 * needed (docs/merchant-admin.md "Experiments", "Results").
 */
import type { ExperimentRow } from '../campaigns/store.ts';
import { toDecimalAmount } from '../analytics/money.ts';
import type { VariantFigures } from './results-store.ts';
import {
  ALPHA,
  POWER,
  RELATIVE_MDE,
  meansZTest,
  mean,
  sampleSizeForMeans,
  sampleSizeForProportions,
  sampleVariance,
  twoProportionZTest,
} from './statistics.ts';
import type { Moments, TestResult } from './statistics.ts';

type Metric = 'conversion_rate' | 'average_order_value' | 'revenue_per_visitor';

type Row = { variant: ExperimentRow['variants'][number]; figures: VariantFigures };

/** Revenue per visitor as a sample of visitors: those without an order count as 0. */
const perVisitor = ({ figures }: Row): Moments => ({
  n: Math.max(figures.visitors, figures.orders.n),
  sum: figures.orders.sum,
  sumSquares: figures.orders.sumSquares,
});

/** The primary metric's value of a variant, in minor units for money; undefined without data. */
function metricOf(metric: Metric, row: Row): number | undefined {
  const { visitors, orders } = row.figures;
  switch (metric) {
    case 'conversion_rate':
      return visitors > 0 ? Math.min(orders.n, visitors) / visitors : undefined;
    case 'average_order_value':
      return orders.n > 0 ? mean(orders) : undefined;
    case 'revenue_per_visitor':
      return visitors > 0 || orders.n > 0 ? mean(perVisitor(row)) : undefined;
  }
}

function compare(metric: Metric, a: Row, b: Row): TestResult | undefined {
  switch (metric) {
    case 'conversion_rate': {
      const converted = (row: Row) => Math.min(row.figures.orders.n, row.figures.visitors);
      return twoProportionZTest(converted(a), a.figures.visitors, converted(b), b.figures.visitors);
    }
    case 'average_order_value':
      return meansZTest(a.figures.orders, b.figures.orders);
    case 'revenue_per_visitor':
      return meansZTest(perVisitor(a), perVisitor(b));
  }
}

/** Sample units per variant still to collect so that a 10 % change of the runner-up's value shows. */
function sampleSize(metric: Metric, leader: Row, baseline: Row) {
  let needed: number | undefined;
  const base = metricOf(metric, baseline);
  if (metric === 'conversion_rate') {
    if (base !== undefined) needed = sampleSizeForProportions(base, Math.min(0.999999, base * (1 + RELATIVE_MDE)));
  } else {
    const sample = metric === 'average_order_value' ? (row: Row) => row.figures.orders : perVisitor;
    const sd = Math.sqrt((sampleVariance(sample(leader)) + sampleVariance(sample(baseline))) / 2);
    if (base !== undefined) needed = sampleSizeForMeans(sd, base * RELATIVE_MDE);
  }
  const unit = metric === 'average_order_value' ? ('orders' as const) : ('visitors' as const);
  const have = Math.min(
    ...[leader, baseline].map((row) => (unit === 'orders' ? row.figures.orders.n : row.figures.visitors)),
  );
  return {
    alpha: ALPHA,
    power: POWER,
    minimumDetectableEffect: RELATIVE_MDE,
    unit,
    neededPerVariant: needed ?? null,
    remainingPerVariant: needed === undefined ? null : Math.max(0, needed - have),
  };
}

const rounded = (value: number, digits = 6) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * The results document of `GET …/experiments/:experimentId/results`.
 *
 * @example experimentResults(experiment, await loadVariantFigures(db, shopId, experiment, now), 'USD', window)
 */
export function experimentResults(
  experiment: ExperimentRow,
  figures: Map<string, VariantFigures>,
  currency: string,
  window: { from: Date; to: Date },
) {
  const metric = experiment.primaryMetric as Metric;
  const rows: Row[] = experiment.variants.map((variant) => ({
    variant,
    figures: figures.get(variant.id) ?? { visitors: 0, giftAdds: 0, orders: { n: 0, sum: 0, sumSquares: 0 } },
  }));
  const money = (minor: number) => toDecimalAmount(Math.round(minor), currency);

  // The leader: the single best value of the primary metric (none on a tie at the top or without data).
  const ranked = rows
    .map((row) => ({ row, value: metricOf(metric, row) }))
    .filter((entry): entry is { row: Row; value: number } => entry.value !== undefined)
    .sort((a, b) => b.value - a.value);
  const [best, second] = ranked;
  const leader = best && (second === undefined || best.value > second.value) && best.value > 0 ? best.row : undefined;
  const tests = new Map<string, TestResult | undefined>(
    leader ? rows.filter((row) => row !== leader).map((row) => [row.variant.id, compare(metric, leader, row)]) : [],
  );
  // Bonferroni over the comparisons with the leader: it must beat every other variant.
  const threshold = ALPHA / Math.max(1, rows.length - 1);
  const pValues = [...tests.values()].map((test) => test?.pValue);
  const weakest = pValues.some((p) => p === undefined) ? undefined : Math.max(...(pValues as number[]));
  const baseline = (leader ? rows.find((row) => row.variant.id === second?.row.variant.id) : undefined) ?? rows[0];

  return {
    experimentId: experiment.id,
    status: experiment.status,
    primaryMetric: metric,
    currency,
    from: window.from.toISOString(),
    to: window.to.toISOString(),
    variants: rows.map((row) => {
      const { visitors, giftAdds, orders } = row.figures;
      const test = tests.get(row.variant.id);
      return {
        variantId: row.variant.id,
        name: row.variant.name,
        ruleId: row.variant.ruleId,
        weight: row.variant.weight,
        visitors,
        giftAdds,
        orders: orders.n,
        revenue: money(orders.sum),
        conversionRate: visitors > 0 ? rounded(Math.min(orders.n, visitors) / visitors) : null,
        revenuePerVisitor: visitors > 0 ? money(orders.sum / Math.max(visitors, orders.n)) : null,
        averageOrderValue: orders.n > 0 ? money(orders.sum / orders.n) : null,
        pValueVsLeader: test ? rounded(test.pValue) : null,
      };
    }),
    leader: leader
      ? {
          variantId: leader.variant.id,
          significant: weakest !== undefined && weakest < threshold,
          pValue: weakest === undefined ? null : rounded(weakest),
          threshold: rounded(threshold),
        }
      : null,
    sampleSize: baseline ? sampleSize(metric, leader ?? baseline, baseline) : null,
  };
}
