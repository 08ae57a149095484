/**
 * "Start an experiment": the primary metric and the rules to compare, none ticked at first (a
 * rule ticked by default could take a gift away from shoppers who qualify for another). Before
 * the start it says in words what the chosen variants take away — rules with different
 * conditions, a disabled rule as a holdout (experimentAudienceWarnings, the server's own check)
 * — and starting then takes a deliberate tick. The server's 400 shows at the field its `path`
 * names.
 */
import { experimentAudienceWarnings } from '@gcrs/engine';
import { Banner, BlockStack, Box, Button, Checkbox, FormLayout, InlineStack, Select, Text, TextField } from '@shopify/polaris';
import { useState } from 'react';
import { api, errorText } from '../api/client.ts';
import type { paths } from '../api/schema.d.ts';

export type Rule = paths['/app/api/v1/campaigns/{id}']['get']['responses'][200]['content']['application/json']['campaign']['rules'][number];
export type Metric = 'conversion_rate' | 'average_order_value' | 'revenue_per_visitor';

export const METRICS: Array<{ label: string; value: Metric }> = [
  { label: 'Conversion rate', value: 'conversion_rate' },
  { label: 'Average order value', value: 'average_order_value' },
  { label: 'Revenue per visitor', value: 'revenue_per_visitor' },
];

type VariantDraft = { ruleId: string; ruleName: string; enabled: boolean; include: boolean; name: string; weight: string };

export function StartForm({ campaignId, rules, onStarted }: { campaignId: string; rules: Rule[]; onStarted: (text: string) => Promise<void> }) {
  const [metric, setMetric] = useState<Metric>('conversion_rate');
  const [variants, setVariants] = useState<VariantDraft[]>(() =>
    rules.map((rule, index) => ({
      ruleId: rule.id,
      ruleName: rule.name,
      enabled: rule.enabled,
      include: false,
      name: rule.enabled ? `Variant ${String.fromCharCode(65 + index)}` : 'Holdout',
      weight: '50',
    })),
  );
  const [accepted, setAccepted] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const change = (index: number, patch: Partial<VariantDraft>) => {
    // Another set of rules is another warning to read.
    if ('include' in patch) setAccepted(false);
    setVariants((current) => current.map((variant, at) => (at === index ? { ...variant, ...patch } : variant)));
  };
  const included = variants.map((variant, index) => ({ variant, index })).filter(({ variant }) => variant.include);
  const warnings =
    included.length >= 2 ? experimentAudienceWarnings(included.map(({ variant }) => ({ name: variant.name.trim(), ruleId: variant.ruleId })), rules) : [];

  const start = async () => {
    setErrors({});
    setFormError(undefined);
    if (included.length < 2) {
      setFormError('Choose at least two rules: an experiment compares two variants or more.');
      return;
    }
    if (warnings.length > 0 && !accepted) {
      setFormError('Read the warning above and tick "Start anyway" if that is what you want to measure.');
      return;
    }
    setBusy(true);
    const { data, error, response } = await api.POST('/app/api/v1/campaigns/{campaignId}/experiments', {
      params: { path: { campaignId } },
      body: {
        primaryMetric: metric,
        variants: included.map(({ variant }) => ({ name: variant.name.trim(), ruleId: variant.ruleId, weight: Number(variant.weight) })),
      },
    });
    setBusy(false);
    if (data) {
      await onStarted(`Experiment started with ${included.length} variants`);
      return;
    }
    const failure = error as { error?: string; issue?: string; path?: unknown[] } | undefined;
    const [head, at, field] = failure?.path ?? [];
    const row = typeof at === 'number' ? included[at] : undefined;
    if (response.status === 400 && head === 'variants' && row && typeof field === 'string') {
      setErrors({ [`${row.index}.${field}`]: failure?.issue ?? errorText(failure) });
    } else setFormError(failure?.issue ?? errorText(failure, `The experiment could not be started (HTTP ${response.status})`));
  };

  if (rules.length < 2) {
    return (
      <Text as="p" tone="subdued">
        An experiment compares rules of the campaign: give it at least two rules in the campaign editor to start one.
      </Text>
    );
  }
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void start();
      }}
    >
      <FormLayout>
        <Select label="Primary metric" options={METRICS} value={metric} onChange={(value) => setMetric(value as Metric)} />
        <fieldset style={{ border: 0, margin: 0, padding: 0 }}>
          <legend>
            <Text as="span" variant="headingSm">
              Variants: the rules to compare, each with a weight (the share of visitors it gets)
            </Text>
          </legend>
          <Text as="p" tone="subdued">
            Each visitor gets only the rule of their variant. Compare rules with the same conditions (for example the same threshold with
            different gifts) so that no shopper who qualifies loses the gift. A disabled rule makes a holdout: its visitors get no gift.
          </Text>
          <BlockStack gap="300">
            {variants.map((variant, index) => (
              <Box key={variant.ruleId} paddingBlockStart="200">
                <BlockStack gap="200">
                  <Checkbox
                    label={variant.enabled ? `Include rule "${variant.ruleName}"` : `Include rule "${variant.ruleName}" as a holdout (disabled: no gift)`}
                    checked={variant.include}
                    onChange={(include) => change(index, { include })}
                  />
                  {variant.include && (
                    <FormLayout.Group condensed>
                      <TextField
                        label={`Variant name for "${variant.ruleName}"`}
                        value={variant.name}
                        onChange={(name) => change(index, { name })}
                        autoComplete="off"
                        error={errors[`${index}.name`] ?? errors[`${index}.ruleId`]}
                      />
                      <TextField
                        label={`Weight for "${variant.ruleName}"`}
                        type="number"
                        min={1}
                        max={10000}
                        value={variant.weight}
                        onChange={(weight) => change(index, { weight })}
                        autoComplete="off"
                        error={errors[`${index}.weight`]}
                      />
                    </FormLayout.Group>
                  )}
                </BlockStack>
              </Box>
            ))}
          </BlockStack>
        </fieldset>
        {warnings.length > 0 && (
          <Banner tone="warning" title="This experiment takes the gift away from some shoppers">
            <BlockStack gap="200">
              {warnings.map((warning) => (
                <p key={warning.code + warning.ruleIds.join()}>{warning.message}</p>
              ))}
              <Checkbox label="Start anyway: I want to measure this, and some shoppers will get no gift" checked={accepted} onChange={setAccepted} />
            </BlockStack>
          </Banner>
        )}
        {formError && (
          <Banner tone="critical">
            <p>{formError}</p>
          </Banner>
        )}
        <InlineStack>
          <Button submit variant="primary" loading={busy}>
            Start experiment
          </Button>
        </InlineStack>
      </FormLayout>
    </form>
  );
}
