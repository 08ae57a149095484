/**
 * Campaigns: every campaign with its status; enable (the health check's warnings shown, then a
 * deliberate "Enable anyway"), disable, delete with confirmation; loading and empty states.
 */
import { Badge, Banner, BlockStack, Box, Button, Card, EmptyState, InlineStack, List, Modal, Page, SkeletonBodyText, Text, Toast } from '@shopify/polaris';
import { useCallback, useEffect, useState } from 'react';
import { api, errorText } from '../api/client.ts';
import type { CampaignListItem, HealthWarning } from '../api/client.ts';
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

function describeWarning(warning: HealthWarning): string {
  switch (warning.kind) {
    case 'gift_inventory':
      return warning.level === 'out_of_stock'
        ? `Gift ${warning.displayName} is out of stock.`
        : `Gift ${warning.displayName} is low on stock (${warning.inventoryQuantity} left).`;
    case 'gift_status':
      return warning.inCatalog ? `Gift ${warning.displayName ?? warning.variantGid} is ${warning.status}.` : `Gift ${warning.variantGid} is not in the catalog.`;
    case 'trigger_status':
      return `A product the conditions name is ${warning.status}${warning.inCatalog ? '' : ' (not in the catalog)'}.`;
    default:
      return 'The checkout configuration would be too large: some rules would not apply at checkout.';
  }
}

type Pending = { campaign: CampaignListItem; warnings: HealthWarning[] };

export function CampaignsPage() {
  const [campaigns, setCampaigns] = useState<CampaignListItem[] | undefined>();
  const [loadError, setLoadError] = useState<string | undefined>();
  const [busy, setBusy] = useState<string | undefined>();
  const [warned, setWarned] = useState<Pending | undefined>();
  const [deleting, setDeleting] = useState<CampaignListItem | undefined>();
  const [toast, setToast] = useState<{ text: string; error?: boolean } | undefined>();

  const load = useCallback(async () => {
    const { data, error } = await api.GET('/app/api/v1/campaigns', { params: { query: { perPage: 100 } } });
    if (data) {
      setCampaigns(data.campaigns);
      setLoadError(undefined);
    } else setLoadError(errorText(error, 'The campaigns could not be loaded'));
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const enable = useCallback(
    async (campaign: CampaignListItem, force: boolean) => {
      setBusy(campaign.id);
      const { data, error, response } = await api.POST('/app/api/v1/campaigns/{id}/enable', {
        params: { path: { id: campaign.id }, query: force ? { force: '1' } : {} },
      });
      setBusy(undefined);
      if (response.status === 409 && error && 'warnings' in error) {
        setWarned({ campaign, warnings: error.warnings });
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
        <EmptyState heading="No gift campaigns yet" image="">
          <p>A campaign gives a gift when a cart meets its conditions. Campaigns created through the API show up here.</p>
        </EmptyState>
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
                      {on ? (
                        <Button onClick={() => void disable(campaign)} loading={busy === campaign.id} accessibilityLabel={`Disable ${campaign.name}`}>
                          Disable
                        </Button>
                      ) : (
                        <Button variant="primary" onClick={() => void enable(campaign, false)} loading={busy === campaign.id} accessibilityLabel={`Enable ${campaign.name}`}>
                          Enable
                        </Button>
                      )}
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
    <Page title="Campaigns">
      {body}
      {warned && (
        <Modal
          open
          onClose={() => setWarned(undefined)}
          title={`${warned.campaign.name} has ${warned.warnings.length} health ${warned.warnings.length === 1 ? 'warning' : 'warnings'}`}
          primaryAction={{ content: 'Enable anyway', destructive: true, loading: busy === warned.campaign.id, onAction: () => void enable(warned.campaign, true) }}
          secondaryActions={[{ content: 'Cancel', onAction: () => setWarned(undefined) }]}
        >
          <Modal.Section>
            <BlockStack gap="200">
              <Text as="p">Shoppers may not get the gift while these last. Fix them in the catalog, or enable the campaign anyway.</Text>
              <List>
                {warned.warnings.map((warning, index) => (
                  <List.Item key={index}>{describeWarning(warning)}</List.Item>
                ))}
              </List>
            </BlockStack>
          </Modal.Section>
        </Modal>
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
      {toast && <Toast content={toast.text} error={toast.error} onDismiss={() => setToast(undefined)} />}
    </Page>
  );
}

