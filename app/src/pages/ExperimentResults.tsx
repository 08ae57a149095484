/**
 * An experiment's per-variant results (GET …/experiments/:id/results): a table of visitors, gift
 * adds, orders, conversion, revenue per visitor and average order value, the leader in a
 * sentence with whether its lead is significant, and the sample size still needed.
 */
import { Banner, BlockStack, Text } from '@shopify/polaris';
import type { paths } from '../api/schema.d.ts';
import { FigureTable } from '../FigureTable.tsx';

export type Results = paths['/app/api/v1/campaigns/{campaignId}/experiments/{experimentId}/results']['get']['responses'][200]['content']['application/json']['results'];
type Metric = Results['primaryMetric'];

const METRIC_WORDS: Record<Metric, string> = {
  conversion_rate: 'conversion rate',
  average_order_value: 'average order value',
  revenue_per_visitor: 'revenue per visitor',
};

const percent = (share: number | null) => (share === null ? '—' : `${(share * 100).toFixed(1)}%`);
const count = (value: number) => value.toLocaleString();
const pValue = (p: number | null) => (p === null ? '—' : p < 0.001 ? '< 0.001' : p.toFixed(3));

function metricText(results: Results, variant: Results['variants'][number], money: Intl.NumberFormat): string {
  switch (results.primaryMetric) {
    case 'conversion_rate':
      return percent(variant.conversionRate);
    case 'average_order_value':
      return variant.averageOrderValue === null ? 'no orders' : money.format(variant.averageOrderValue);
    case 'revenue_per_visitor':
      return variant.revenuePerVisitor === null ? 'no visitors' : money.format(variant.revenuePerVisitor);
  }
}

/**
 * The numbers' verdict in one sentence, e.g. "The numbers favour Variant A on conversion rate
 * (60.0% against 20.0%), not yet significantly (p = 0.068; it needs p < 0.05)."
 */
export function verdict(results: Results): string {
  const money = new Intl.NumberFormat(undefined, { style: 'currency', currency: results.currency });
  const leader = results.leader;
  const metric = METRIC_WORDS[results.primaryMetric];
  if (!leader) return `No variant leads on ${metric} yet: there is not enough data, or the variants are level.`;
  const best = results.variants.find((variant) => variant.variantId === leader.variantId);
  if (!best) return '';
  const others = results.variants.filter((variant) => variant !== best).map((variant) => metricText(results, variant, money));
  const against = others.length > 0 ? ` (${metricText(results, best, money)} against ${others.join(', ')})` : '';
  const p = leader.pValue === null ? undefined : pValue(leader.pValue);
  const pText = p === undefined ? '' : p.startsWith('<') ? `p ${p}` : `p = ${p}`;
  const significance = p === undefined
    ? 'but the difference cannot be tested yet'
    : leader.significant
      ? `and the difference is significant (${pText}, below ${leader.threshold})`
      : `but not yet significantly (${pText}; it needs p below ${leader.threshold})`;
  return `The numbers favour ${best.name} on ${metric}${against}, ${significance}.`;
}

function sampleSentence(results: Results): string | undefined {
  const size = results.sampleSize;
  if (!size) return undefined;
  const effect = `a ${Math.round(size.minimumDetectableEffect * 100)}% change of ${METRIC_WORDS[results.primaryMetric]}`;
  const terms = `${Math.round((1 - size.alpha) * 100)}% confidence and ${Math.round(size.power * 100)}% power`;
  if (size.neededPerVariant === null || size.remainingPerVariant === null) {
    return `The sample size needed cannot be estimated until the variants have ${size.unit === 'orders' ? 'orders' : 'visitors and orders'}.`;
  }
  if (size.remainingPerVariant === 0) return `Enough ${size.unit} to detect ${effect} with ${terms} (${count(size.neededPerVariant)} per variant).`;
  return `To detect ${effect} with ${terms}, each variant needs ${count(size.neededPerVariant)} ${size.unit}: about ${count(size.remainingPerVariant)} more.`;
}

export function ExperimentResults({ results }: { results: Results }) {
  const money = new Intl.NumberFormat(undefined, { style: 'currency', currency: results.currency });
  const amount = (value: number | null) => (value === null ? '—' : money.format(value));
  const sample = sampleSentence(results);
  return (
    <BlockStack gap="200">
      {results.warnings.map((warning) => (
        <Banner key={warning.code + warning.ruleIds.join()} tone="warning" title={warning.code === 'holdout' ? 'Holdout' : 'Some shoppers get no gift'}>
          <p>{warning.message}</p>
        </Banner>
      ))}
      <FigureTable
        label="Results by variant"
        numeric={[false, true, true, true, true, true, true, true]}
        headings={['Variant', 'Visitors', 'Gift adds', 'Orders', 'Conversion', 'Revenue per visitor', 'Average order value', 'p-value against the leader']}
        rows={results.variants.map((variant) => [
          variant.variantId === results.leader?.variantId ? `${variant.name} (leader)` : variant.name,
          count(variant.visitors),
          count(variant.giftAdds),
          count(variant.orders),
          percent(variant.conversionRate),
          amount(variant.revenuePerVisitor),
          amount(variant.averageOrderValue),
          pValue(variant.pValueVsLeader),
        ])}
      />
      <Text as="p">{verdict(results)}</Text>
      {sample && (
        <Text as="p" tone="subdued">
          {sample}
        </Text>
      )}
      <Text as="p" tone="subdued" variant="bodySm">
        Visitors are the shoppers the storefront reported during the experiment; orders are those with this variant's gift. Orders
        without a gift cannot be tied to a visitor, so a holdout shows no orders.
      </Text>
    </BlockStack>
  );
}
