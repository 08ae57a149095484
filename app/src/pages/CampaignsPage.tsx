/**
 * Campaigns, the admin's home: the getting-started checklist until it is done or dismissed
 * (GettingStarted.tsx), the templates (TemplateChooser.tsx), and every campaign with its status
 * (CampaignList.tsx); enable (the health check's warnings shown, then a deliberate "Enable
 * anyway"), disable, schedule (ScheduleModal.tsx), delete with confirmation; loading and empty
 * states.
 */
import { Banner, BlockStack, Card, List, Modal, Page, SkeletonBodyText, Text } from '@shopify/polaris';
import { Empty } from '../Empty.tsx';
import { useCallback, useState } from 'react';
import { api, errorText } from '../api/client.ts';
import { useLoaded } from '../useLoaded.ts';
import { Notice } from '../Notice.tsx';
import type { NoticeText } from '../Notice.tsx';
import type { CampaignListItem } from '../api/client.ts';
import { warningSentences } from '../health-warnings.ts';
import { CampaignList } from './CampaignList.tsx';
import { GettingStarted } from './GettingStarted.tsx';
import { ScheduleModal } from './ScheduleModal.tsx';
import { TemplateChooser } from './TemplateChooser.tsx';

/** A campaign the health check stopped, and its warnings as sentences (each once, with its rule's name). */
type Pending = { campaign: CampaignListItem; sentences: string[] };

/**
 * The route's loader (app/src/routes.tsx): the campaigns, and the getting-started checklist beside
 * them (a checklist that fails to load is left out: it helps, it never blocks the list). Every
 * change in the list runs it again, so enabling a first campaign ticks its step at once.
 */
export const loadCampaigns = async () => {
  const [list, checklist] = await Promise.all([api.GET('/app/api/v1/campaigns', { params: { query: { perPage: 100 } } }), api.GET('/app/api/v1/onboarding')]);
  return list.data ? { data: { ...list.data, onboarding: checklist.data?.onboarding } } : { error: list.error };
};

export function CampaignsPage() {
  const loaded = useLoaded<typeof loadCampaigns>('The campaigns could not be loaded');
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
          <p>A campaign gives a gift when a cart meets its conditions. Create one with New campaign or from a template below; campaigns created through the API show up here too.</p>
        </Empty>
      </Card>
    );
  } else {
    body = (
      <CampaignList campaigns={campaigns} now={now} busy={busy} enable={(c, force) => void enable(c, force)} disable={(c) => void disable(c)} setScheduling={setScheduling} setDeleting={setDeleting} />
    );
  }

  return (
    <Page title="Campaigns" primaryAction={{ content: 'New campaign', url: '#/campaigns/new' }} secondaryActions={[{ content: 'Tier ladder', url: '#/ladder/new' }]}>
      <Notice notice={toast} onDismiss={() => setToast(undefined)} />
      <BlockStack gap="400">
        <GettingStarted onboarding={loaded.value?.onboarding} />
        {body}
        <TemplateChooser />
      </BlockStack>
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

