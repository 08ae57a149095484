/**
 * What the campaign editor and the tier ladder editor share: saving one campaign through the
 * campaign routes (a new one is an import of one, an existing one a PUT: all or nothing), and
 * the screen while a campaign loads or after it could not be.
 */
import { Banner, Card, Page, SkeletonBodyText } from '@shopify/polaris';
import { api } from '../api/client.ts';
import type { CampaignBody, Loaded as LoadedCampaign } from './campaign-body.ts';

export type { CampaignBody, LoadedCampaign };
export type Path = (string | number)[];

/** The outcome of a save: the campaign as saved, or the server's error with its path from the campaign. */
export type Saved = { campaign: LoadedCampaign } | { error: unknown; path: Path | undefined };

/**
 * Saves `body` as the campaign `id` (`'new'`: creates it, then opens `<screen><new id>`, and
 * answers undefined). The import's error paths start at `campaigns[0]`: made the campaign's.
 */
export async function saveCampaign(id: string, body: CampaignBody, screen: string): Promise<Saved | undefined> {
  if (id === 'new') {
    const { data, error } = await api.POST('/app/api/v1/campaigns/import', { body: { campaigns: [body] } });
    const createdId = data?.campaignIds[0];
    if (createdId) {
      window.location.hash = screen + createdId;
      return undefined;
    }
    const path = (error as { path?: Path } | undefined)?.path;
    return { error, path: path && path[0] === 'campaigns' ? path.slice(2) : path };
  }
  const { data, error } = await api.PUT('/app/api/v1/campaigns/{id}', { params: { path: { id } }, body });
  return data ? { campaign: data.campaign } : { error, path: (error as { path?: Path } | undefined)?.path };
}

/** The page of a campaign not loaded yet: a skeleton, or the error with "Try again". */
export function CampaignLoading({ title, loadError, onRetry }: { title: string; loadError: string | undefined; onRetry: () => void }) {
  const backAction = { content: 'Campaigns', url: '#/campaigns' };
  if (loadError) {
    return (
      <Page title={title} backAction={backAction}>
        <Banner tone="critical" title="The campaign could not be loaded" action={{ content: 'Try again', onAction: onRetry }}>
          <p>{loadError}</p>
        </Banner>
      </Page>
    );
  }
  return (
    <Page title={title} backAction={backAction}>
      <Card>
        <span role="status" aria-label="Loading the campaign" />
        <SkeletonBodyText lines={8} />
      </Card>
    </Page>
  );
}
