/** Plan caps on campaigns, rules and active campaigns (SPEC "Limits", CONTRACT default table). */
import { planLimit } from '../http/errors.ts';
import type { Caps } from '@gcrs/engine';
import type { CampaignCounts } from './store.ts';

/**
 * Throws the 403 of the first cap that `current + adding` would exceed. A cap is only
 * checked where the change adds something, so a shop over a lowered cap can still edit
 * what it has without growing.
 *
 * @example
 *   assertWithinCaps({ campaigns: 3, rules: 4, activeCampaigns: 0 }, { campaigns: 1, rules: 0, activeCampaigns: 0 }, caps);
 */
export function assertWithinCaps(current: CampaignCounts, adding: CampaignCounts, caps: Caps): void {
  for (const name of ['campaigns', 'rules', 'activeCampaigns'] as const) {
    if (adding[name] > 0 && current[name] + adding[name] > caps[name]) throw planLimit(name, caps[name]);
  }
}

export const isLive = (campaign: { enabled: boolean; isDraft: boolean }): boolean => campaign.enabled && !campaign.isDraft;
