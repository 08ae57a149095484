/**
 * Side effects of a campaign's live state changing (SPEC "States and transitions"), queued in
 * the unit of work of the change. "Live" is enabled and not draft — the states the table
 * names: `campaign.activated` when a campaign becomes live, `campaign.deactivated` when it
 * stops being live (disabled, back to draft, or deleted while live). The automatic discount is
 * synced on exactly the same transitions, so the two never disagree and activated/deactivated
 * alternate for each campaign.
 */
import type { Trigger } from '../http/shop-routes.ts';
import type { OutboxEvent } from '../outbox/enqueue.ts';
import { isLive } from './caps.ts';

type CampaignState = { id: string; name: string; enabled: boolean; isDraft: boolean };

/**
 * The discount sync and the webhook when `before` and `after` differ in liveness; nothing
 * otherwise. `after` is null when the campaign was deleted.
 *
 * @example
 *   uow.enqueue(...liveTransitionEvents(before, { ...before, enabled: true, isDraft: false }, 'api'));
 */
export function liveTransitionEvents(before: CampaignState, after: CampaignState | null, trigger: Trigger): OutboxEvent[] {
  const wasLive = isLive(before);
  const nowLive = after !== null && isLive(after);
  if (wasLive === nowLive) return [];
  const state = after ?? { ...before, enabled: false };
  return [
    { kind: 'discount_sync', payload: { campaignId: before.id, active: nowLive } },
    {
      kind: 'webhook',
      type: nowLive ? 'campaign.activated' : 'campaign.deactivated',
      data: {
        campaignId: before.id,
        name: state.name,
        enabled: state.enabled,
        isDraft: state.isDraft,
        trigger,
        ...(after === null ? { deleted: true } : {}),
      },
    },
  ];
}

/**
 * The discount syncs of campaigns created live (import): no webhook, as SPEC's States table
 * lists none for import.
 *
 * @example
 *   uow.enqueue(...discountSyncEvents(['cmp_1', 'cmp_2']));
 */
export function discountSyncEvents(liveCampaignIds: readonly string[]): OutboxEvent[] {
  return liveCampaignIds.map((campaignId) => ({ kind: 'discount_sync', payload: { campaignId, active: true } }));
}

/**
 * The discount sync of a change to a campaign that is live before and after (its rules or
 * schedule replaced): the checkout configuration holds the live rules, so it is rewritten.
 * Nothing when the liveness changes (liveTransitionEvents queues the sync then) or the
 * campaign is not live.
 *
 * @example
 *   uow.enqueue(...liveConfigSyncEvents(before, after));
 */
export function liveConfigSyncEvents(before: CampaignState, after: CampaignState | null): OutboxEvent[] {
  if (after === null || !isLive(before) || !isLive(after)) return [];
  return [{ kind: 'discount_sync', payload: { campaignId: before.id, active: true } }];
}
