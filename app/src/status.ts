/** A campaign's status as the list shows it (CONTRACT "Merchant admin": live/scheduled/expired/draft/disabled). */
export type CampaignStatus = 'live' | 'scheduled' | 'expired' | 'draft' | 'disabled';

export function campaignStatus(
  campaign: { enabled: boolean; isDraft: boolean; startAt: string | null; endAt: string | null },
  now: Date,
): CampaignStatus {
  if (campaign.isDraft) return 'draft';
  if (!campaign.enabled) return 'disabled';
  if (campaign.endAt !== null && new Date(campaign.endAt) <= now) return 'expired';
  if (campaign.startAt !== null && new Date(campaign.startAt) > now) return 'scheduled';
  return 'live';
}
