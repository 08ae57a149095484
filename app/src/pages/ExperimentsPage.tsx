/**
 * Experiments: a campaign's A/B experiments (running, stopped, concluded) with their variants
 * and per-variant results; start one (ExperimentStartForm.tsx), stop a running one, conclude one
 * with the winner the numbers favour preselected (the merchant may choose another).
 */
import { Badge, Banner, BlockStack, Box, Button, Card, ChoiceList, InlineStack, Modal, Page, Select, SkeletonBodyText, Text } from '@shopify/polaris';
import { useCallback, useEffect, useState } from 'react';
import { api, errorText } from '../api/client.ts';
import type { CampaignListItem } from '../api/client.ts';
import type { paths } from '../api/schema.d.ts';
import { loadAllCampaigns } from '../all-campaigns.ts';
import { Empty } from '../Empty.tsx';
import { Notice } from '../Notice.tsx';
import type { NoticeText } from '../Notice.tsx';
import { ExperimentResults, verdict } from './ExperimentResults.tsx';
import type { Results } from './ExperimentResults.tsx';
import { METRICS, StartForm } from './ExperimentStartForm.tsx';
import type { Metric, Rule } from './ExperimentStartForm.tsx';

type Experiment = paths['/app/api/v1/campaigns/{campaignId}/experiments']['get']['responses'][200]['content']['application/json']['experiments'][number];

const METRIC_LABEL = Object.fromEntries(METRICS.map((metric) => [metric.value, metric.label])) as Record<Metric, string>;
const STATUS_TONE = { running: 'success', stopped: 'warning', concluded: 'info' } as const;
const STATUS_LABEL = { running: 'Running', stopped: 'Stopped', concluded: 'Concluded' } as const;

export function ExperimentsPage() {
  const [campaigns, setCampaigns] = useState<CampaignListItem[] | undefined>();
  const [campaignId, setCampaignId] = useState<string | undefined>();
  const [experiments, setExperiments] = useState<Experiment[] | undefined>();
  const [rules, setRules] = useState<Rule[]>([]);
  const [results, setResults] = useState<Record<string, Results | undefined>>({});
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
      const all = [...list.data.experiments].sort((a, b) => b.startedAt.localeCompare(a.startedAt));
      setExperiments(all);
      setRules(campaign.data.campaign.rules);
      // Each experiment's results; one that fails to load is shown without them.
      const loaded = await Promise.all(
        all.map(async (experiment) => {
          const { data } = await api.GET('/app/api/v1/campaigns/{campaignId}/experiments/{experimentId}/results', {
            params: { path: { campaignId: id, experimentId: experiment.id } },
          });
          return [experiment.id, data?.results] as const;
        }),
      );
      setResults(Object.fromEntries(loaded));
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
                                    <Text as="h2" variant="headingSm">
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
                                          const favoured = results[experiment.id]?.leader?.variantId ?? experiment.variants[0]?.id;
                                          setWinner(favoured ? [favoured] : []);
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
                                {results[experiment.id] ? (
                                  <ExperimentResults results={results[experiment.id] as Results} />
                                ) : (
                                  <Text as="p" tone="subdued">
                                    The results could not be loaded.
                                  </Text>
                                )}
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
              {results[concluding.id] && (
                <Text as="p" fontWeight="semibold">
                  {verdict(results[concluding.id] as Results)}
                  {results[concluding.id]?.leader ? ' It is preselected; you can still choose another variant.' : ''}
                </Text>
              )}
              <ChoiceList
                title="Winning variant"
                choices={concluding.variants.map((variant) => ({
                  label: `${variant.name} (rule “${ruleName(variant.ruleId)}”)${variant.id === results[concluding.id]?.leader?.variantId ? ', favoured by the numbers' : ''}`,
                  value: variant.id,
                }))}
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
