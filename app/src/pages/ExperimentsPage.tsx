/**
 * Experiments: a campaign's A/B experiments (running, stopped, concluded) with their variants;
 * start one (variants = rules of the campaign with weights, a primary metric; the server's 400
 * shown at the field its `path` names), stop a running one, conclude one with a chosen winner.
 */
import { Badge, Banner, BlockStack, Box, Button, Card, Checkbox, ChoiceList, FormLayout, InlineStack, Modal, Page, Select, SkeletonBodyText, Text, TextField } from '@shopify/polaris';
import { useCallback, useEffect, useState } from 'react';
import { api, errorText } from '../api/client.ts';
import type { CampaignListItem } from '../api/client.ts';
import type { paths } from '../api/schema.d.ts';
import { loadAllCampaigns } from '../all-campaigns.ts';
import { Empty } from '../Empty.tsx';
import { Notice } from '../Notice.tsx';
import type { NoticeText } from '../Notice.tsx';

type Experiment = paths['/app/api/v1/campaigns/{campaignId}/experiments']['get']['responses'][200]['content']['application/json']['experiments'][number];
type Rule = paths['/app/api/v1/campaigns/{id}']['get']['responses'][200]['content']['application/json']['campaign']['rules'][number];
type Metric = Experiment['primaryMetric'];

const METRICS: Array<{ label: string; value: Metric }> = [
  { label: 'Conversion rate', value: 'conversion_rate' },
  { label: 'Average order value', value: 'average_order_value' },
  { label: 'Revenue per visitor', value: 'revenue_per_visitor' },
];
const METRIC_LABEL = Object.fromEntries(METRICS.map((metric) => [metric.value, metric.label])) as Record<Metric, string>;
const STATUS_TONE = { running: 'success', stopped: 'warning', concluded: 'info' } as const;
const STATUS_LABEL = { running: 'Running', stopped: 'Stopped', concluded: 'Concluded' } as const;

type VariantDraft = { ruleId: string; ruleName: string; include: boolean; name: string; weight: string };

function StartForm({ campaignId, rules, onStarted }: { campaignId: string; rules: Rule[]; onStarted: (text: string) => Promise<void> }) {
  const [metric, setMetric] = useState<Metric>('conversion_rate');
  const [variants, setVariants] = useState<VariantDraft[]>(() =>
    rules.map((rule, index) => ({ ruleId: rule.id, ruleName: rule.name, include: index < 2, name: `Variant ${String.fromCharCode(65 + index)}`, weight: '50' })),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const change = (index: number, patch: Partial<VariantDraft>) =>
    setVariants((current) => current.map((variant, at) => (at === index ? { ...variant, ...patch } : variant)));

  const start = async () => {
    const included = variants.map((variant, index) => ({ variant, index })).filter(({ variant }) => variant.include);
    setErrors({});
    setFormError(undefined);
    if (included.length < 2) {
      setFormError('Choose at least two rules: an experiment compares two variants or more.');
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
          <BlockStack gap="300">
            {variants.map((variant, index) => (
              <Box key={variant.ruleId} paddingBlockStart="200">
                <BlockStack gap="200">
                  <Checkbox label={`Include rule "${variant.ruleName}"`} checked={variant.include} onChange={(include) => change(index, { include })} />
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

export function ExperimentsPage() {
  const [campaigns, setCampaigns] = useState<CampaignListItem[] | undefined>();
  const [campaignId, setCampaignId] = useState<string | undefined>();
  const [experiments, setExperiments] = useState<Experiment[] | undefined>();
  const [rules, setRules] = useState<Rule[]>([]);
  const [loadError, setLoadError] = useState<string | undefined>();
  const [notice, setNotice] = useState<NoticeText | undefined>();
  const [concluding, setConcluding] = useState<Experiment | undefined>();
  const [winner, setWinner] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    loadAllCampaigns()
      .then((all) => {
        setCampaigns(all);
        setCampaignId((current) => current ?? all[0]?.id);
      })
      .catch((error: unknown) => setLoadError(error instanceof Error ? error.message : 'The campaigns could not be loaded'));
  }, []);

  const load = useCallback(async (id: string) => {
    setExperiments(undefined);
    setLoadError(undefined);
    const [list, campaign] = await Promise.all([
      api.GET('/app/api/v1/campaigns/{campaignId}/experiments', { params: { path: { campaignId: id } } }),
      api.GET('/app/api/v1/campaigns/{id}', { params: { path: { id } } }),
    ]);
    if (list.data && campaign.data) {
      setExperiments([...list.data.experiments].sort((a, b) => b.startedAt.localeCompare(a.startedAt)));
      setRules(campaign.data.campaign.rules);
    } else setLoadError(errorText(list.error ?? campaign.error, 'The experiments could not be loaded'));
  }, []);
  useEffect(() => {
    if (campaignId) void load(campaignId);
  }, [campaignId, load]);

  const ruleName = (ruleId: string) => rules.find((rule) => rule.id === ruleId)?.name ?? ruleId;

  const stop = async (experiment: Experiment) => {
    if (!campaignId) return;
    setBusy(true);
    const { data, error } = await api.POST('/app/api/v1/campaigns/{campaignId}/experiments/{experimentId}/stop', {
      params: { path: { campaignId, experimentId: experiment.id } },
    });
    setBusy(false);
    setNotice(data ? { text: 'Experiment stopped: every visitor now gets the campaign as without it' } : { text: errorText(error, 'The experiment could not be stopped'), error: true });
    await load(campaignId);
  };

  const conclude = async (experiment: Experiment, winnerVariantId: string | undefined) => {
    if (!campaignId || !winnerVariantId) return;
    setBusy(true);
    const { data, error } = await api.POST('/app/api/v1/campaigns/{campaignId}/experiments/{experimentId}/conclude', {
      params: { path: { campaignId, experimentId: experiment.id } },
      body: { winnerVariantId },
    });
    setBusy(false);
    setConcluding(undefined);
    const name = experiment.variants.find((variant) => variant.id === winnerVariantId)?.name ?? 'the winner';
    setNotice(data ? { text: `Experiment concluded: ${name} won` } : { text: errorText(error, 'The experiment could not be concluded'), error: true });
    await load(campaignId);
  };

  const running = experiments?.find((experiment) => experiment.status === 'running');

  return (
    <Page title="Experiments" subtitle="A/B tests between the rules of a campaign">
      <Notice notice={notice} onDismiss={() => setNotice(undefined)} />
      <BlockStack gap="400">
        {campaigns === undefined && !loadError ? (
          <Card>
            <SkeletonBodyText lines={3} />
          </Card>
        ) : campaigns?.length === 0 ? (
          <Card>
            <Empty heading="No campaigns yet">
              <p>An experiment compares rules of a campaign. Create a campaign first.</p>
            </Empty>
          </Card>
        ) : (
          <>
            {campaigns && (
              <Card>
                <Select
                  label="Campaign"
                  options={campaigns.map((campaign) => ({ label: campaign.name, value: campaign.id }))}
                  value={campaignId ?? ''}
                  onChange={setCampaignId}
                />
              </Card>
            )}
            {loadError ? (
              <Banner tone="critical" title="The experiments could not be loaded" action={campaignId ? { content: 'Try again', onAction: () => void load(campaignId) } : undefined}>
                <p>{loadError}</p>
              </Banner>
            ) : experiments === undefined ? (
              <Card>
                <SkeletonBodyText lines={4} />
              </Card>
            ) : (
              <>
                {!running && campaignId && (
                  <Card>
                    <BlockStack gap="300">
                      <Text as="h2" variant="headingMd">
                        Start an experiment
                      </Text>
                      <StartForm
                        key={`${campaignId}:${experiments.length}`}
                        campaignId={campaignId}
                        rules={rules}
                        onStarted={async (text) => {
                          setNotice({ text });
                          await load(campaignId);
                        }}
                      />
                    </BlockStack>
                  </Card>
                )}
                {experiments.length === 0 ? (
                  <Card>
                    <Empty heading="No experiments for this campaign">
                      <p>Start one above to split visitors between its rules.</p>
                    </Empty>
                  </Card>
                ) : (
                  <Card padding="0">
                    <ul aria-label="Experiments" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
                      {experiments.map((experiment, index) => {
                        const label = `experiment started ${new Date(experiment.startedAt).toLocaleString()}`;
                        const total = experiment.variants.reduce((sum, variant) => sum + variant.weight, 0);
                        return (
                          <li key={experiment.id} style={index > 0 ? { borderTop: '1px solid var(--p-color-border-secondary)' } : undefined}>
                            <Box padding="400">
                              <BlockStack gap="200">
                                <InlineStack align="space-between" blockAlign="center" gap="300" wrap>
                                  <InlineStack gap="200" blockAlign="center">
                                    <Text as="h3" variant="headingSm">
                                      {METRIC_LABEL[experiment.primaryMetric]}
                                    </Text>
                                    <Badge tone={STATUS_TONE[experiment.status]}>{STATUS_LABEL[experiment.status]}</Badge>
                                  </InlineStack>
                                  <InlineStack gap="200">
                                    {experiment.status === 'running' && (
                                      <Button onClick={() => void stop(experiment)} loading={busy} accessibilityLabel={`Stop ${label}`}>
                                        Stop
                                      </Button>
                                    )}
                                    {experiment.status !== 'concluded' && (
                                      <Button
                                        variant="primary"
                                        onClick={() => {
                                          setWinner(experiment.variants[0] ? [experiment.variants[0].id] : []);
                                          setConcluding(experiment);
                                        }}
                                        accessibilityLabel={`Conclude ${label}`}
                                      >
                                        Conclude
                                      </Button>
                                    )}
                                  </InlineStack>
                                </InlineStack>
                                <Text as="p" tone="subdued">
                                  Started {new Date(experiment.startedAt).toLocaleString()}
                                  {experiment.stoppedAt ? ` · stopped ${new Date(experiment.stoppedAt).toLocaleString()}` : ''}
                                  {experiment.concludedAt ? ` · concluded ${new Date(experiment.concludedAt).toLocaleString()}` : ''}
                                </Text>
                                <ul style={{ margin: 0, paddingInlineStart: '1.25rem' }}>
                                  {experiment.variants.map((variant) => (
                                    <li key={variant.id}>
                                      <Text as="span" fontWeight={variant.id === experiment.winnerVariantId ? 'bold' : 'regular'}>
                                        {variant.name}
                                      </Text>{' '}
                                      (rule “{ruleName(variant.ruleId)}”, weight {variant.weight}, {Math.round((variant.weight / total) * 100)}% of visitors)
                                      {variant.id === experiment.winnerVariantId ? ' — winner' : ''}
                                    </li>
                                  ))}
                                </ul>
                              </BlockStack>
                            </Box>
                          </li>
                        );
                      })}
                    </ul>
                  </Card>
                )}
              </>
            )}
          </>
        )}
      </BlockStack>
      {concluding && (
        <Modal
          open
          onClose={() => setConcluding(undefined)}
          title="Conclude the experiment"
          primaryAction={{ content: 'Conclude with this winner', loading: busy, onAction: () => void conclude(concluding, winner[0]) }}
          secondaryActions={[{ content: 'Cancel', onAction: () => setConcluding(undefined) }]}
        >
          <Modal.Section>
            <BlockStack gap="300">
              <Text as="p">The experiment ends and the winner is recorded. Visitors then get the campaign's rules as without the experiment.</Text>
              <ChoiceList
                title="Winning variant"
                choices={concluding.variants.map((variant) => ({ label: `${variant.name} (rule “${ruleName(variant.ruleId)}”)`, value: variant.id }))}
                selected={winner}
                onChange={setWinner}
              />
            </BlockStack>
          </Modal.Section>
        </Modal>
      )}
    </Page>
  );
}
