/**
 * The campaign editor's data: the PUT body it edits (the API's own type, generated from the
 * server's Zod schemas), a loaded campaign as a body, and a server error path in the merchant's
 * words. No component here: the templates' unit test reads it.
 */
import type { paths } from '../api/schema.d.ts';

export type CampaignBody = paths['/app/api/v1/campaigns/{id}']['put']['requestBody']['content']['application/json'];
export type RuleBody = CampaignBody['rules'][number];
export type Loaded = paths['/app/api/v1/campaigns/{id}']['get']['responses'][200]['content']['application/json']['campaign'];
export type Budget = NonNullable<CampaignBody['budget']>;
export type Usage = NonNullable<Loaded['budgetUsage']>['rules'][string];

/** The PUT body of a loaded campaign: what the editor edits. */
export function bodyOf(campaign: Loaded): CampaignBody {
  return {
    name: campaign.name,
    enabled: campaign.enabled,
    isDraft: campaign.isDraft,
    startAt: campaign.startAt,
    endAt: campaign.endAt,
    ...(campaign.budget ? { budget: campaign.budget } : {}),
    rules: campaign.rules.map(({ id, name, enabled, conditionTree, giftConfig, options }) => ({ id, name, enabled, conditionTree, giftConfig, options })),
  };
}

/** Where a server path points, in the merchant's words (for the banner above the form). */
export function describePath(path: readonly (string | number)[]): string {
  if (path.length === 0) return '';
  const [first, index, ...rest] = path;
  if (first === 'rules' && typeof index === 'number') return ` (rule ${index + 1}${rest.length ? `: ${rest.join(' › ')}` : ''})`;
  return ` (${path.join(' › ')})`;
}
