/**
 * Campaigns: every campaign with its status; enable (the health check's warnings shown, then a
 * deliberate "Enable anyway"), disable, schedule (start and end in the browser's time zone; the
 * server's error shown at the field its `path` names), delete with confirmation; loading and
 * empty states.
 */
import { Badge, Banner, BlockStack, Box, Button, Card, FormLayout, InlineStack, List, Modal, Page, SkeletonBodyText, Text, TextField } from '@shopify/polaris';
import { Empty } from '../Empty.tsx';
import { useCallback, useState } from 'react';
import { api, errorText } from '../api/client.ts';
import { useLoaded } from '../useLoaded.ts';
import { Notice } from '../Notice.tsx';
import type { NoticeText } from '../Notice.tsx';
import type { CampaignListItem } from '../api/client.ts';
import { warningSentences } from '../health-warnings.ts';
import { campaignStatus } from '../status.ts';
import type { CampaignStatus } from '../status.ts';

const STATUS_TONE: Record<CampaignStatus, 'success' | 'info' | 'warning' | 'critical' | undefined> = {
  live: 'success',
  scheduled: 'info',
  expired: 'warning',
  draft: undefined,
  disabled: 'critical',
};
const STATUS_LABEL: Record<CampaignStatus, string> = { live: 'Live', scheduled: 'Scheduled', expired: 'Expired', draft: 'Draft', disabled: 'Disabled' };

/** A campaign the health check stopped, and its warnings as sentences (each once, with its rule's name). */
type Pending = { campaign: CampaignListItem; sentences: string[] };

/** An ISO instant as a `datetime-local` value in the browser's time zone ('' for none). */
export function toLocalInput(iso: string | null): string {
  if (iso === null) return '';
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A `datetime-local` value (browser time zone) as an ISO instant; null when empty. */
export const fromLocalInput = (value: string): string | null => (value === '' ? null : new Date(value).toISOString());

function ScheduleModal({ campaign, onDone, onClose }: { campaign: CampaignListItem; onDone: (text: string) => void; onClose: () => void }) {
  const [startAt, setStartAt] = useState(toLocalInput(campaign.startAt));
  const [endAt, setEndAt] = useState(toLocalInput(campaign.endAt));
  const [errors, setErrors] = useState<{ startAt?: string; endAt?: string; other?: string }>({});
  const [saving, setSaving] = useState(false);

  const save = async () => {
    setSaving(true);
    const { data, error } = await api.POST('/app/api/v1/campaigns/{id}/schedule', {
      params: { path: { id: campaign.id } },
      body: { startAt: fromLocalInput(startAt), endAt: fromLocalInput(endAt) },
    });
    setSaving(false);
    if (data) {
      onDone(`${campaign.name} is scheduled`);
      return;
    }
    const field = error && 'path' in error && Array.isArray(error.path) ? error.path[0] : undefined;
    const text = (error && 'issue' in error && typeof error.issue === 'string' ? error.issue : undefined) ?? errorText(error, 'The schedule could not be saved');
    setErrors(field === 'startAt' || field === 'endAt' ? { [field]: text } : { other: text });
  };

  return (
    <Modal
      open
      onClose={onClose}
      title={`Schedule ${campaign.name}`}
      primaryAction={{ content: 'Save schedule', loading: saving, onAction: () => void save() }}
      secondaryActions={[{ content: 'Cancel', onAction: onClose }]}
    >
      <Modal.Section>
        <FormLayout>
          <Text as="p" tone="subdued">
            Times are in your browser's time zone. Leave a field empty for no start or no end. Scheduling does not enable the campaign.
          </Text>
          {errors.other && (
            <Banner tone="critical">
              <p>{errors.other}</p>
            </Banner>
          )}
          <TextField label="Starts" type="datetime-local" value={startAt} onChange={setStartAt} autoComplete="off" error={errors.startAt} clearButton onClearButtonClick={() => setStartAt('')} />
          <TextField label="Ends" type="datetime-local" value={endAt} onChange={setEndAt} autoComplete="off" error={errors.endAt} clearButton onClearButtonClick={() => setEndAt('')} />
        </FormLayout>
      </Modal.Section>
    </Modal>
  );
}

export function CampaignsPage() {
  const loaded = useLoaded(() => api.GET('/app/api/v1/campaigns', { params: { query: { perPage: 100 } } }), 'The campaigns could not be loaded');
  const { error: loadError, reload: load } = loaded;
  const campaigns = loaded.value?.campaigns;
  const [busy, setBusy] = useState<string | undefined>();
  const [warned, setWarned] = useState<Pending | undefined>();
  const [deleting, setDeleting] = useState<CampaignListItem | undefined>();
  const [scheduling, setScheduling] = useState<CampaignListItem | undefined>();
  const [toast, setToast] = useState<NoticeText | undefined>();

  const enable = useCallback(
    async (campaign: CampaignListItem, force: boolean) => {
      setBusy(campaign.id);
      const { data, error, response } = await api.POST('/app/api/v1/campaigns/{id}/enable', {
        params: { path: { id: campaign.id }, query: force ? { force: '1' } : {} },
      });
      setBusy(undefined);
      if (response.status === 409 && error && 'warnings' in error) {
        // The rules' names are in the campaign, not in the warnings.
        const read = await api.GET('/app/api/v1/campaigns/{id}', { params: { path: { id: campaign.id } } });
        const names = new Map((read.data?.campaign.rules ?? []).map((rule) => [rule.id, rule.name]));
        setWarned({ campaign, sentences: warningSentences(error.warnings, (ruleId) => names.get(ruleId)) });
        return;
      }
      setWarned(undefined);
      if (data) setToast({ text: `${campaign.name} is enabled` });
      else setToast({ text: errorText(error, 'The campaign could not be enabled'), error: true });
      await load();
    },
    [load],
  );

  const disable = useCallback(
    async (campaign: CampaignListItem) => {
      setBusy(campaign.id);
      const { data, error } = await api.POST('/app/api/v1/campaigns/{id}/disable', { params: { path: { id: campaign.id } } });
      setBusy(undefined);
      setToast(data ? { text: `${campaign.name} is disabled` } : { text: errorText(error, 'The campaign could not be disabled'), error: true });
      await load();
    },
    [load],
  );

  const remove = useCallback(
    async (campaign: CampaignListItem) => {
      setBusy(campaign.id);
      const { response, error } = await api.DELETE('/app/api/v1/campaigns/{id}', { params: { path: { id: campaign.id } } });
      setBusy(undefined);
      setDeleting(undefined);
      setToast(response.ok ? { text: `${campaign.name} is deleted` } : { text: errorText(error, 'The campaign could not be deleted'), error: true });
      await load();
    },
    [load],
  );

  const now = new Date();
  let body;
  if (loadError) {
    body = (
      <Banner tone="critical" title="The campaigns could not be loaded" action={{ content: 'Try again', onAction: () => void load() }}>
        <p>{loadError}</p>
      </Banner>
    );
  } else if (campaigns === undefined) {
    body = (
      <Card>
        <span role="status" aria-label="Loading campaigns" />
        <SkeletonBodyText lines={6} />
      </Card>
    );
  } else if (campaigns.length === 0) {
    body = (
      <Card>
        <Empty heading="No gift campaigns yet">
          <p>A campaign gives a gift when a cart meets its conditions. Create one with New campaign; campaigns created through the API show up here too.</p>
        </Empty>
      </Card>
    );
  } else {
    body = (
      <Card padding="0">
        <ul aria-label="Campaigns" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {campaigns.map((campaign, index) => {
            const status = campaignStatus(campaign, now);
            const on = campaign.enabled && !campaign.isDraft;
            return (
              <li key={campaign.id} style={index > 0 ? { borderTop: '1px solid var(--p-color-border-secondary)' } : undefined}>
                <Box padding="400">
                  <InlineStack align="space-between" blockAlign="center" gap="300" wrap>
                    <BlockStack gap="100">
                      <InlineStack gap="200" blockAlign="center">
                        <Text as="h3" variant="headingSm">
                          {campaign.name}
                        </Text>
                        <Badge tone={STATUS_TONE[status]}>{STATUS_LABEL[status]}</Badge>
                      </InlineStack>
                      <Text as="p" tone="subdued">
                        {campaign.rulesCount} {campaign.rulesCount === 1 ? 'rule' : 'rules'}
                        {campaign.startAt ? ` · starts ${new Date(campaign.startAt).toLocaleString()}` : ''}
                        {campaign.endAt ? ` · ends ${new Date(campaign.endAt).toLocaleString()}` : ''}
                      </Text>
                    </BlockStack>
                    <InlineStack gap="200">
                      <Button url={`#/campaigns/${campaign.id}`} accessibilityLabel={`Edit ${campaign.name}`}>
                        Edit
                      </Button>
                      {on ? (
                        <Button onClick={() => void disable(campaign)} loading={busy === campaign.id} accessibilityLabel={`Disable ${campaign.name}`}>
                          Disable
                        </Button>
                      ) : (
                        <Button variant="primary" onClick={() => void enable(campaign, false)} loading={busy === campaign.id} accessibilityLabel={`Enable ${campaign.name}`}>
                          Enable
                        </Button>
                      )}
                      <Button onClick={() => setScheduling(campaign)} accessibilityLabel={`Schedule ${campaign.name}`}>
                        Schedule
                      </Button>
                      <Button tone="critical" onClick={() => setDeleting(campaign)} accessibilityLabel={`Delete ${campaign.name}`}>
                        Delete
                      </Button>
                    </InlineStack>
                  </InlineStack>
                </Box>
              </li>
            );
          })}
        </ul>
      </Card>
    );
  }

  return (
    <Page title="Campaigns" primaryAction={{ content: 'New campaign', url: '#/campaigns/new' }} secondaryActions={[{ content: 'Tier ladder', url: '#/ladder/new' }]}>
      <Notice notice={toast} onDismiss={() => setToast(undefined)} />
      {body}
      {warned && (
        <Modal
          open
          onClose={() => setWarned(undefined)}
          title={`${warned.campaign.name} has ${warned.sentences.length} health ${warned.sentences.length === 1 ? 'warning' : 'warnings'}`}
          primaryAction={{ content: 'Enable anyway', destructive: true, loading: busy === warned.campaign.id, onAction: () => void enable(warned.campaign, true) }}
          secondaryActions={[{ content: 'Cancel', onAction: () => setWarned(undefined) }]}
        >
          <Modal.Section>
            <BlockStack gap="200">
              <Text as="p">Shoppers may not get the gift while these last. Fix them in the catalog, or enable the campaign anyway.</Text>
              <List>
                {warned.sentences.map((sentence) => (
                  <List.Item key={sentence}>{sentence}</List.Item>
                ))}
              </List>
            </BlockStack>
          </Modal.Section>
        </Modal>
      )}
      {scheduling && (
        <ScheduleModal
          campaign={scheduling}
          onClose={() => setScheduling(undefined)}
          onDone={(text) => {
            setScheduling(undefined);
            setToast({ text });
            void load();
          }}
        />
      )}
      {deleting && (
        <Modal
          open
          onClose={() => setDeleting(undefined)}
          title={`Delete ${deleting.name}?`}
          primaryAction={{ content: 'Delete campaign', destructive: true, loading: busy === deleting.id, onAction: () => void remove(deleting) }}
          secondaryActions={[{ content: 'Cancel', onAction: () => setDeleting(undefined) }]}
        >
          <Modal.Section>
            <Text as="p">The campaign and its rules are deleted. Redemptions already recorded stay in analytics. This cannot be undone.</Text>
          </Modal.Section>
        </Modal>
      )}
    </Page>
  );
}

