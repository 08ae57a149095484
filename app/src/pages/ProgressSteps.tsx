/**
 * The progress bar's steps as the storefront draws them (issue 23): read from the live rules,
 * never typed here. Each `cart.subtotal_gte` threshold of a live rule (outside any NOT), with its
 * currency and market overrides and the rule's gifts, and a link to the rule's campaign, where
 * the threshold is edited.
 */
import { BlockStack, Box, Button, InlineStack, Text } from '@shopify/polaris';
import { formatMoney, subtotalLeaves } from '../../../packages/storefront/src/progress.ts';
import type { paths } from '../api/schema';

export type LiveRule = paths['/app/api/v1/rules']['get']['responses'][200]['content']['application/json']['rules'][number];

/** One step as the Widgets page lists it. */
export type ListedStep = { rule: LiveRule; value: number; overrides: string[] };

/**
 * @example liveSteps(rules) // [{ rule, value: 5000, overrides: ['EUR 4500'] }], by amount
 */
export function liveSteps(rules: readonly LiveRule[]): ListedStep[] {
  const steps: ListedStep[] = [];
  for (const rule of rules) {
    for (const leaf of subtotalLeaves(rule.conditionTree)) {
      const overrides = [
        ...Object.entries(leaf.currencyOverrides ?? {}).map(([code, amount]) => formatMoney(amount, code.toUpperCase())),
        ...Object.keys(leaf.marketOverrides ?? {}).map((market) => [market]).map(([market]) => `its own amount in market ${market ?? ''}`),
      ];
      steps.push({ rule, value: leaf.value, overrides });
    }
  }
  return steps.sort((a, b) => a.value - b.value);
}

export function ProgressSteps({ steps, currency, titles }: { steps: ListedStep[] | undefined; currency: string; titles: Record<string, string> }) {
  return (
    <BlockStack gap="200">
      <Text as="h3" variant="headingSm">
        Steps, from your live rules
      </Text>
      <Text as="p" tone="subdued">
        The bar counts toward each spend threshold of your live campaigns, in the shopper’s currency when the rule has an amount for it. Change a step in its rule.
      </Text>
      {steps === undefined && <Text as="p">Loading the live rules…</Text>}
      {steps?.length === 0 && (
        <InlineStack gap="200" blockAlign="center">
          <Text as="p">No live rule has a cart subtotal threshold, so the bar stays hidden.</Text>
          <Button url="#/campaigns" variant="plain">
            Open campaigns
          </Button>
        </InlineStack>
      )}
      {steps && steps.length > 0 && (
        <ul aria-label="Progress bar steps" style={{ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: 8 }}>
          {steps.map(({ rule, value, overrides }, index) => (
            <li key={`${rule.id}-${index}`}>
              <Box padding="200" borderWidth="025" borderColor="border" borderRadius="200">
                <InlineStack align="space-between" blockAlign="center" gap="200" wrap>
                  <BlockStack gap="050">
                    <Text as="p" fontWeight="semibold">
                      {`Spend ${formatMoney(value, currency)}: ${rule.giftConfig.gifts.map((gift) => titles[gift.variantId] ?? 'a gift not in the catalog').join(', ')}`}
                    </Text>
                    <Text as="p" tone="subdued">
                      {`Rule “${rule.name}”${overrides.length > 0 ? `; also ${overrides.join(', ')}` : '; in other currencies only with an override'}`}
                    </Text>
                  </BlockStack>
                  <Button url={`#/campaigns/${rule.campaignId}`} accessibilityLabel={`Edit rule ${rule.name}`}>
                    Edit rule
                  </Button>
                </InlineStack>
              </Box>
            </li>
          ))}
        </ul>
      )}
    </BlockStack>
  );
}
