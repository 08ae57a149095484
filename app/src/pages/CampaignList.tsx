/**
 * The campaigns list: each campaign with its status badge, its rules and schedule, and its
 * actions (edit, enable or disable, schedule, delete), each named for its campaign.
 */
import { Badge, BlockStack, Box, Button, Card, InlineStack, Text } from '@shopify/polaris';
import type { CampaignListItem } from '../api/client.ts';
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

type Actions = {
  busy: string | undefined;
  enable: (campaign: CampaignListItem, force: boolean) => void;
  disable: (campaign: CampaignListItem) => void;
  setScheduling: (campaign: CampaignListItem) => void;
  setDeleting: (campaign: CampaignListItem) => void;
};

export function CampaignList({ campaigns, now, busy, enable, disable, setScheduling, setDeleting }: { campaigns: CampaignListItem[]; now: Date } & Actions) {
  return (
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
                    <Text as="h2" variant="headingSm">
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
