/** Every campaign of the shop, page by page (the list answers at most 100 a page). */
import { api, errorText } from './api/client.ts';
import type { CampaignListItem } from './api/client.ts';

export async function loadAllCampaigns(): Promise<CampaignListItem[]> {
  const all: CampaignListItem[] = [];
  for (let page = 1; ; page += 1) {
    const { data, error } = await api.GET('/app/api/v1/campaigns', { params: { query: { perPage: 100, page } } });
    if (!data) throw new Error(errorText(error, 'The campaigns could not be loaded'));
    all.push(...data.campaigns);
    if (data.campaigns.length === 0 || all.length >= data.meta.total) return all;
  }
}
